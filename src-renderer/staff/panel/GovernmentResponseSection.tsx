/** The government-response form of the staff panel (§2, §5): add, edit and remove a response. */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { SUCCESS } from '../../../src-shared/domain/messages.ts';
import type { Petition, PetitionDetail, User } from '../../../src-shared/domain/schemas.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { api } from '../../services/api.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { useStaffForm } from '../lib/useStaffForm.ts';
import { ResponseFields } from './ResponseFields.tsx';
import {
  RESPONSE_REMOVAL,
  buildResponseRequest,
  initialResponseDraft,
  responseErrors,
  responseSummary,
} from './responseForm.ts';
import type { ResponseErrors } from './responseForm.ts';

export function GovernmentResponseSection({
  petition,
  user,
  onChanged,
}: {
  petition: PetitionDetail;
  user: User;
  onChanged: (p?: Petition) => void;
}) {
  const [draft, setDraft] = useState(() => initialResponseDraft(petition, user));
  const form = useStaffForm<ResponseErrors>('government-response', {});
  const { errors, setErrors, attempt, busy, setBusy, outcome, setOutcome, slot } = form;
  const [confirming, setConfirming] = useState(false);
  const existing = Boolean(petition.governmentResponse);

  // A response saved or removed elsewhere (or by this form) becomes the new starting point.
  useEffect(() => {
    setDraft(initialResponseDraft(petition, user));
  }, [petition.governmentResponse]);

  const submit = (event: FormEvent) =>
    form.submit(
      event,
      responseErrors(draft),
      async () => {
        const saved = await api.saveGovernmentResponse(petition.id, buildResponseRequest(draft, petition.id), {
          ifMatch: petition.version,
        });
        setOutcome(success(existing ? STAFF_TEXTS.responseUpdated : SUCCESS.responseAdded));
        onChanged(saved);
      },
      (error) => failure(error, existing ? STAFF_TEXTS.responseUpdateFailed : STAFF_TEXTS.responseAddFailed),
    );

  const remove = async () => {
    setBusy(true);
    try {
      const saved = await api.deleteGovernmentResponse(petition.id, { ifMatch: petition.version });
      setErrors({});
      slot.release();
      form.focusOutcome();
      setOutcome(success(STAFF_TEXTS.responseRemoved));
      setConfirming(false);
      onChanged(saved);
    } catch (error) {
      form.focusOutcome();
      setOutcome(failure(error, STAFF_TEXTS.responseRemoveFailed));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  const summary = responseSummary(errors);
  return (
    <section className="staff-section" aria-labelledby="gov-response-heading">
      <h3 className="heading-s" id="gov-response-heading">
        {existing ? STAFF_TEXTS.responseHeadingEdit : STAFF_TEXTS.responseHeadingAdd}
      </h3>
      {slot.visible ? <ErrorSummary errors={summary} focusKey={attempt} /> : null}
      <OutcomeNotice
        outcome={outcome}
        focusRef={form.outcomeRef}
        onDismiss={() => setOutcome(null)}
        onReload={() => {
          setOutcome(null);
          onChanged();
        }}
        reloadLabel={STAFF_TEXTS.reloadPetition}
      />
      <form onSubmit={submit} noValidate>
        <ResponseFields
          draft={draft}
          errors={errors}
          onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
          textRows={4}
        />
        <div className="staff-actions">
          <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
            {existing ? STAFF_TEXTS.responseSubmitEdit : STAFF_TEXTS.responseSubmitAdd}
          </button>
          {existing ? (
            <button
              type="button"
              className="button button--warning"
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              {STAFF_TEXTS.responseRemove}
            </button>
          ) : null}
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        {...RESPONSE_REMOVAL}
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
