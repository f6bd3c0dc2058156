/**
 * Petition status override (the administrator may set any status: docs/statuses.md#set-by-staff). The
 * petition is chosen in a combobox that holds the chosen petition itself (lib/PetitionCombobox.tsx), and the
 * button names the petition it will change; the change carries the version the petition was chosen with.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { PetitionStatus } from '../../../src-shared/domain/constants.ts';
import { VALIDATION } from '../../../src-shared/domain/messages.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { Field } from '../../components/Field.tsx';
import { PetitionStatusOptions } from '../../components/PetitionOptions.tsx';
import { api } from '../../services/api.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { announcePetitionsUpdated } from '../../stores/index.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { statusFailure, success } from '../lib/outcome.ts';
import { PetitionCombobox, petitionChoiceLabel } from '../lib/PetitionCombobox.tsx';
import type { ChosenPetition } from '../lib/PetitionCombobox.tsx';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { useStaffForm } from '../lib/useStaffForm.ts';
import { truncate } from '../../components/format.ts';

export function StatusOverride() {
  const [chosen, setChosen] = useState<ChosenPetition | null>(null);
  const [status, setStatus] = useState('');
  const form = useStaffForm<string | null>('status-override', null);
  const writes = useStaffWrites();
  const { errors: error, attempt, busy, outcome, setOutcome, slot } = form;

  const submit = (event: FormEvent) => {
    const target = chosen;
    return form.submit(
      event,
      !target || !status ? VALIDATION.statusNeedsPetitionAndStatus : null,
      async () => {
        if (!target) return; // unreachable: refused above; this narrows the type
        const next = status as PetitionStatus;
        const updated = await writes.perform({
          kind: 'petition.setStatus',
          petitionId: target.id,
          baseVersion: target.version,
          status: next,
        });
        if (isQueued(updated)) {
          setOutcome(queuedOutcome(updated));
          return;
        }
        setChosen({ id: updated.id, title: updated.title, version: updated.version, status: updated.status });
        setOutcome(success(`Status of #${updated.id} "${truncate(updated.title, 80)}" set to ${statusLabel(updated.status)}.`));
        announcePetitionsUpdated();
      },
      statusFailure,
    );
  };

  return (
    <section className="staff-danger__item" aria-labelledby="status-override-heading">
      <h3 className="heading-s" id="status-override-heading">
        Petition Status Override
      </h3>
      {slot.visible && error ? (
        <ErrorSummary
          errors={[{ fieldId: chosen ? 'override-status' : 'override-petition', message: error }]}
          focusKey={attempt}
        />
      ) : null}
      <OutcomeNotice
        outcome={outcome}
        onDismiss={() => setOutcome(null)}
        onReload={() => {
          // 412: the petition changed since it was chosen; choose it again as it is now.
          setOutcome(null);
          if (!chosen) return;
          api
            .getPetition(chosen.id)
            .then((fresh) => setChosen({ id: fresh.id, title: fresh.title, version: fresh.version, status: fresh.status }))
            .catch((reloadError: unknown) => setOutcome(statusFailure(reloadError)));
        }}
        reloadLabel={STAFF_TEXTS.reloadPetition}
      />
      <form className="staff-form" onSubmit={submit} noValidate aria-labelledby="status-override-heading">
        <PetitionCombobox
          id="override-petition"
          label="Petition"
          hint="Type part of the title, then choose the petition from the list"
          error={error && !chosen ? error : null}
          chosen={chosen}
          onChoose={setChosen}
        />
        {chosen ? <p className="hint">Current status: {statusLabel(chosen.status)}</p> : null}
        <Field id="override-status" label="New status" error={error && chosen && !status ? error : null}>
          {(a11y) => (
            <select
              id="override-status"
              className="select"
              required
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              {...a11y}
            >
              <PetitionStatusOptions />
            </select>
          )}
        </Field>
        <div className="staff-actions">
          <button type="submit" className="button button--warning" disabled={busy} aria-busy={busy || undefined}>
            {chosen ? `Update status of ${petitionChoiceLabel(chosen)}` : 'Update Status'}
          </button>
        </div>
      </form>
    </section>
  );
}
