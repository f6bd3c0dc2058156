/** Outcomes as toasts: announced politely, dismissible, gone after a few seconds. */
import { useStores } from '../state/context.tsx';

export function Toasts() {
  const { toasts } = useStores();
  const items = toasts((s) => s.toasts);
  return (
    <div className="console-toasts" role="status" aria-live="polite">
      {items.map((toast) => (
        <div key={toast.id} className={`console-toast console-toast--${toast.tone}`}>
          <p>{toast.text}</p>
          <button type="button" className="console-link-button" onClick={() => toasts.getState().dismiss(toast.id)}>
            Dismiss<span className="visually-hidden"> notification</span>
          </button>
        </div>
      ))}
    </div>
  );
}
