/**
 * A spinner with a text that screen readers hear once (role=status). `className` (e.g.
 * 'loading--stats') reserves the space of the content it stands for, so nothing jumps when it arrives.
 */
export function Loading({ text = 'Loading...', className }: { text?: string; className?: string }) {
  return (
    <div className={className ? `loading ${className}` : 'loading'} role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
