/**
 * A conflict, side by side: what the server holds now (who, role, when, text) against the user's
 * draft. The user decides: discard theirs, copy their text, or submit theirs as the new version
 * (a new action based on the server's current version; the old row is superseded).
 */
import { useState } from 'react';
import type { OutboxEntry } from '../../../src-shared/console/outbox.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import { platform } from '../../platform/index.ts';
import { errorMessage } from '../consoleApi.ts';
import { useStores } from '../state/context.tsx';
import { conflictHeadline, copyableText, draftSide, resubmission, serverSide } from '../outboxView.ts';
import type { ConflictSide } from '../outboxView.ts';

function Side({ side, className, headingLevel }: { side: ConflictSide; className: string; headingLevel: 3 | 4 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section className={`console-conflict__side ${className}`} aria-label={side.heading}>
      <Heading className="heading-s">{side.heading}</Heading>
      <p className="console-hint">
        {side.who ?? 'Unknown'}
        {side.role ? ` (${side.role})` : ''}
        {side.when ? `, ${formatDateTime(side.when)}` : ''}
      </p>
      <blockquote className="console-quote">{side.text}</blockquote>
    </section>
  );
}

/** `headingLevel`: the level of the two sides' headings, one below the heading the card sits under. */
export function ConflictCard({ entry, headingLevel = 4 }: { entry: OutboxEntry; headingLevel?: 3 | 4 }) {
  const { outbox, toasts } = useStores();
  const [busy, setBusy] = useState(false);
  const server = entry.serverPetition;
  const text = copyableText(entry.action);
  const again = server ? resubmission(entry.action, server) : null;

  const run = async (what: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await what();
      toasts.getState().push('success', done);
    } catch (error) {
      toasts.getState().push('error', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="console-conflict" role="group" aria-label={`Conflict: ${entry.summary}`}>
      <p className="console-conflict__headline">{conflictHeadline(entry)}</p>
      <div className="console-conflict__sides">
        <Side side={serverSide(entry.action, server)} className="console-conflict__side--server" headingLevel={headingLevel} />
        <Side side={draftSide(entry)} className="console-conflict__side--mine" headingLevel={headingLevel} />
      </div>
      <div className="console-outbox__actions">
        <button
          type="button"
          className="button button--secondary console-small"
          disabled={busy}
          onClick={() => void run(() => outbox.getState().discard(entry.id), 'Your version was discarded.')}
        >
          Discard mine
        </button>
        {text ? (
          <button
            type="button"
            className="button button--secondary console-small"
            disabled={busy}
            onClick={() => void run(() => platform.copyText(text), 'Your text is on the clipboard.')}
          >
            Copy my text
          </button>
        ) : null}
        {again ? (
          <button
            type="button"
            className="button console-small"
            disabled={busy}
            onClick={() =>
              void run(
                () => outbox.getState().resubmit(entry.id, again),
                `Queued your version as the new version of petition #${'petitionId' in again ? again.petitionId : ''}.`,
              )
            }
          >
            Submit mine as the new version
          </button>
        ) : null}
      </div>
    </div>
  );
}
