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
      {/* The last contact goes under the state, so the header keeps to one row (console.css). */}
      <span className="console-connection__text">
        <span className="console-connection__label">{CONNECTION_LABELS[connection]}</span>
        {connection !== 'online' && lastContactAt ? (
          <span className="console-connection__since">
            <span className="visually-hidden"> · </span>last contact {shortDateTime(lastContactAt)}
          </span>
        ) : null}
      </span>
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

/** The badge on the button: only what is not zero ("2 queued · ⚠ 1"), empty when nothing waits. */
export function outboxBadgeShort(summary: { queued: number; sending: number; attention: number }): string {
  const parts: string[] = [];
  if (summary.queued) parts.push(`${summary.queued} queued`);
  if (summary.sending) parts.push(`${summary.sending} sending`);
  if (summary.attention) parts.push(`⚠ ${summary.attention}`);
  return parts.join(' · ');
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
      title={outboxBadgeText(summary)}
    >
      Outbox
      {outboxBadgeShort(summary) ? (
        <span className="console-badge-short" aria-hidden="true">
          {' '}
          {outboxBadgeShort(summary)}
        </span>
      ) : null}
      {/* The whole summary for screen readers (the button's name) and on hover. */}
      <span className="visually-hidden">: </span>
      <span className="console-badge visually-hidden">{outboxBadgeText(summary)}</span>
    </button>
  );
}
