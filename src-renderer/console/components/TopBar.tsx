/** The connection state and the outbox badge: on every screen, in the top bar. */
import { CONNECTION_LABELS, shortDateTime } from '../format.ts';
import { useStores } from '../state/context.tsx';

export function ConnectionStatus() {
  const { session } = useStores();
  const connection = session((s) => s.session?.connection ?? 'offline');
  const lastContactAt = session((s) => s.session?.lastContactAt ?? null);
  const busy = session((s) => s.busy);
  return (
    <div className={`console-connection console-connection--${connection}`} role="status">
      <span className="console-connection__dot" aria-hidden="true" />
      <span className="console-connection__label">{CONNECTION_LABELS[connection]}</span>
      {connection !== 'online' && lastContactAt ? (
        <span className="console-connection__since"> · last contact {shortDateTime(lastContactAt)}</span>
      ) : null}
      {connection === 'signin_needed' ? (
        <button
          type="button"
          className="console-link-button"
          disabled={busy}
          onClick={() => void session.getState().signIn()}
        >
          Sign in again
        </button>
      ) : null}
    </div>
  );
}

export function outboxBadgeText(summary: { queued: number; sending: number; attention: number }): string {
  return `${summary.queued} queued · ${summary.sending} sending · ${summary.attention} need attention`;
}

export function OutboxButton() {
  const { outbox, nav } = useStores();
  const summary = outbox((s) => s.summary);
  return (
    <button
      type="button"
      className={`button button--secondary console-small console-outbox-button${summary.attention ? ' console-outbox-button--attention' : ''}`}
      onClick={() => nav.getState().open('outbox')}
      aria-keyshortcuts="O"
    >
      Outbox <span className="console-badge">{outboxBadgeText(summary)}</span>
    </button>
  );
}
