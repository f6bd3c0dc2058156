/**
 * Deleting a member's data at their request (docs/privacy.md#deleting-your-data): the member's ROBLOX
 * user id and the typed confirmation. The server checks both again and answers what it did.
 */
import { useState } from 'react';
import { ACCOUNT_DELETION_CONFIRMATION, isDeletionConfirmed } from '../../../src-shared/domain/privacy-constants.ts';
import { isUserId } from '../../../src-shared/rules/validation.ts';
import { Field } from '../../components/Field.tsx';
import { api } from '../../services/api.ts';
import { announcePetitionsUpdated } from '../../stores/index.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, plural, success, type Outcome } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';

export function DeleteMemberData() {
  const [userId, setUserId] = useState('');
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const enabled = isUserId(userId.trim()) && isDeletionConfirmed(typed);

  const run = async () => {
    if (!enabled) return;
    setBusy(true);
    setOutcome(null);
    try {
      const id = userId.trim();
      const done = await api.deleteMemberData(id, typed);
      setUserId('');
      setTyped('');
      setOutcome(
        success(
          `Data of user ${id} deleted: ${plural(done.signaturesRemoved, 'signature')} removed, ${plural(done.signaturesAnonymised, 'signature')} anonymised, ${plural(done.petitionsKept, 'petition')} kept.`,
        ),
      );
      announcePetitionsUpdated();
    } catch (error) {
      setOutcome(failure(error, STAFF_TEXTS.deleteMemberDataFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="staff-danger__item" aria-labelledby="delete-member-heading">
      <h3 className="heading-s" id="delete-member-heading">
        Delete a member&apos;s data
      </h3>
      <p>
        At a member&apos;s request: signs them out everywhere, removes their signatures from open petitions, anonymises those on
        closed petitions and keeps their petitions as created by a deleted member. A ban on their account stays.
      </p>
      <OutcomeNotice outcome={outcome} onDismiss={() => setOutcome(null)} />
      <form
        className="staff-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
        noValidate
        aria-labelledby="delete-member-heading"
      >
        <Field id="delete-member-user-id" label="ROBLOX user id" hint="Digits only, e.g. 123456789">
          {(a11y) => (
            <input
              id="delete-member-user-id"
              className="input input--short"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              value={userId}
              onChange={(e) => setUserId(e.target.value)}
              {...a11y}
            />
          )}
        </Field>
        <Field id="delete-member-confirmation" label={`Type ${ACCOUNT_DELETION_CONFIRMATION} to confirm`}>
          {(a11y) => (
            <input
              id="delete-member-confirmation"
              className="input input--short"
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
        <div className="staff-actions">
          <button type="submit" className="button button--warning" disabled={!enabled || busy} aria-busy={busy || undefined}>
            Delete Member Data
          </button>
        </div>
      </form>
    </section>
  );
}
