/** A spinner with a text that screen readers hear once (role=status). */
export function Loading({ text = 'Loading...' }: { text?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
