/**
 * The outbox: every queued action with its state and the server's message; retry, discard, and
 * for a conflict the side-by-side card. Nothing here ever overwrites the server's newer version
 * on its own: a conflict waits for the user's decision.
 */
import { useState } from 'react';
import type { OutboxEntry } from '../../../src-shared/console/outbox.ts';
import { errorMessage } from '../consoleApi.ts';
import { shortDateTime } from '../format.ts';
import { outboxBadgeText } from '../components/TopBar.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { useStores } from '../state/context.tsx';
import { useOnline } from '../state/selectors.ts';
import { canDiscard, canRetry } from '../../../src-shared/console/outbox-states.ts';
import { outboxGroup, petitionIdOf, stateText } from '../outboxView.ts';
import type { OutboxGroup } from '../outboxView.ts';
import { ConflictCard } from './ConflictCard.tsx';

const GROUP_TITLES: Record<OutboxGroup, string> = {
  attention: 'Needs attention',
  active: 'Queued and sending',
  done: 'Recently applied or discarded',
};

export function OutboxPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { outbox } = useStores();
  const entries = outbox((s) => s.entries);
  const summary = outbox((s) => s.summary);
  const groups: Record<OutboxGroup, OutboxEntry[]> = { attention: [], active: [], done: [] };
  for (const entry of [...entries].sort((a, b) => b.seq - a.seq)) groups[outboxGroup(entry.state)].push(entry);
  return (
    <Dialog panel open={open} title="Outbox" onClose={onClose} className="console-outbox">
      <p className="console-hint" data-autofocus tabIndex={-1}>
        {outboxBadgeText(summary)}
      </p>
      {(['attention', 'active', 'done'] as const).map((group) => (
        <section key={group} aria-labelledby={`outbox-${group}`}>
          <h3 className="heading-s" id={`outbox-${group}`}>
            {GROUP_TITLES[group]} ({groups[group].length})
          </h3>
          {groups[group].length === 0 ? <p className="console-hint">None.</p> : null}
          <ul className="console-outbox__list">
            {(group === 'done' ? groups[group].slice(0, 30) : groups[group]).map((entry) => (
              <li key={entry.id}>
                <OutboxRow entry={entry} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Dialog>
  );
}

function OutboxRow({ entry }: { entry: OutboxEntry }) {
  const { outbox, toasts, nav } = useStores();
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const petitionId = petitionIdOf(entry.action);
  const run = async (what: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await what();
      toasts.getState().push('info', done);
    } catch (error) {
      toasts.getState().push('error', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className={`console-outbox__row console-outbox__row--${outboxGroup(entry.state)}`} aria-label={entry.summary}>
      <p className="console-outbox__what">
        <strong>{entry.summary}</strong>
        <span className={`console-state console-state--${entry.state}`}>{stateText(entry, shortDateTime, online)}</span>
      </p>
      <p className="console-hint">
        {petitionId ? (
          <button
            type="button"
            className="console-link-button"
            onClick={() => nav.getState().go({ name: 'petition', id: petitionId, mode: null, from: null })}
          >
            Petition #{petitionId}
          </button>
        ) : null}{' '}
        queued {shortDateTime(entry.createdAt)}
        {entry.attempts ? ` · ${entry.attempts} ${entry.attempts === 1 ? 'attempt' : 'attempts'}` : ''}
      </p>
      {entry.lastError ? <p className="console-outbox__message">Server: {entry.lastError}</p> : null}
      {entry.state === 'conflict' ? <ConflictCard entry={entry} /> : null}
      <div className="console-outbox__actions">
        {canRetry(entry.state) ? (
          <button
            type="button"
            className="button button--secondary console-small"
            disabled={busy}
            onClick={() => void run(() => outbox.getState().retry(entry.id), `Retrying: ${entry.summary}`)}
          >
            Retry<span className="visually-hidden"> {entry.summary}</span>
          </button>
        ) : null}
        {canDiscard(entry.state) && entry.state !== 'conflict' ? (
          <button
            type="button"
            className="button button--secondary console-small"
            disabled={busy}
            onClick={() => void run(() => outbox.getState().discard(entry.id), `Discarded: ${entry.summary}`)}
          >
            Discard<span className="visually-hidden"> {entry.summary}</span>
          </button>
        ) : null}
      </div>
    </article>
  );
}
