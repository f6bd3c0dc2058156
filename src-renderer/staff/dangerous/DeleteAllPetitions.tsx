/**
 * Delete All Petitions behind a typed confirmation: the button stays disabled until the exact
 * phrase is typed, and the line under the box says why (what to type, case-sensitive, what is off).
 * The server checks the phrase again.
 */
import { useState } from 'react';
import { ERRORS } from '../../../src-shared/domain/messages.ts';
import { Field } from '../../components/Field.tsx';
import { api } from '../../services/api.ts';
import { announcePetitionsUpdated } from '../../stores/index.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, plural, success } from '../lib/outcome.ts';
import type { Outcome } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { deleteAllEnabled, deleteAllGuidance } from './siteActions.ts';

export function DeleteAllPetitions() {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const enabled = deleteAllEnabled(typed);

  const run = async () => {
    if (!enabled) return;
    setBusy(true);
    setOutcome(null);
    try {
      const { deleted } = await api.deleteAllPetitions(typed);
      setTyped('');
      setOutcome(success(`All petitions deleted (${plural(deleted, 'petition')} removed).`));
      announcePetitionsUpdated();
    } catch (error) {
      setOutcome(failure(error, STAFF_TEXTS.deleteAllFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="staff-danger__item" aria-labelledby="delete-all-heading">
      <h3 className="heading-s" id="delete-all-heading">
        Delete All Petitions
      </h3>
      <p>This permanently deletes every petition with its signatures, responses and debate information.</p>
      <OutcomeNotice outcome={outcome} onDismiss={() => setOutcome(null)} />
      <form
        className="staff-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
        noValidate
        aria-labelledby="delete-all-heading"
      >
        <Field id="delete-all-confirmation" label={ERRORS.deleteAllConfirmation} hint="Capital letters, exactly as shown: the phrase is case-sensitive.">
          {(a11y) => (
            <input
              id="delete-all-confirmation"
              className="input"
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              {...a11y}
            />
          )}
        </Field>
        <p className="hint" id="delete-all-guidance" aria-live="polite">
          {deleteAllGuidance(typed)}
        </p>
        <div className="staff-actions">
          <button
            type="submit"
            className="button button--warning"
            disabled={!enabled || busy}
            aria-busy={busy || undefined}
            aria-describedby="delete-all-guidance"
          >
            Delete All Petitions
          </button>
        </div>
      </form>
    </section>
  );
}
