/**
 * 'Delete Petition' with its confirmation (docs/rules.md#deleting-petitions); the page leaves the deleted
 * petition afterwards.
 */
import { useState } from 'react';
import { CONFIRMATIONS, ERRORS } from '../../../src-shared/domain/messages.ts';
import type { Petition, PetitionDetail } from '../../../src-shared/domain/schemas.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { performStaffAction } from '../../../src-shared/console/staff-action-calls.ts';
import { api } from '../../services/api.ts';
import { announcePetitionsUpdated } from '../../stores/index.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, isNotFound } from '../lib/outcome.ts';
import type { Outcome } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';

export function DeletePetitionSection({
  petition,
  onChanged,
  onDeleted,
}: {
  petition: PetitionDetail;
  onChanged: (p?: Petition) => void;
  onDeleted: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const remove = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      await performStaffAction(api, { kind: 'petition.delete', petitionId: petition.id, baseVersion: petition.version });
      setConfirming(false);
      // The page owns what follows: it leaves the petition and says 'Petition deleted successfully'
      // where it takes the user.
      announcePetitionsUpdated();
      onDeleted();
    } catch (error) {
      setConfirming(false);
      setOutcome(
        isNotFound(error)
          ? { tone: 'error', text: ERRORS.petitionNotFound }
          : failure(error, STAFF_TEXTS.deletePetitionFailed),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="staff-section staff-section--danger" aria-labelledby="delete-petition-heading">
      <h3 className="heading-s" id="delete-petition-heading">
        {STAFF_TEXTS.deletePetition}
      </h3>
      <OutcomeNotice
        outcome={outcome}
        onDismiss={() => setOutcome(null)}
        onReload={() => {
          setOutcome(null);
          onChanged();
        }}
        reloadLabel={STAFF_TEXTS.reloadPetition}
      />
      <button type="button" className="button button--warning" disabled={busy} onClick={() => setConfirming(true)}>
        {STAFF_TEXTS.deletePetition}
      </button>
      <ConfirmDialog
        open={confirming}
        title={STAFF_TEXTS.deletePetitionTitle}
        message={CONFIRMATIONS.deletePetition}
        confirmLabel={STAFF_TEXTS.deletePetition}
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
