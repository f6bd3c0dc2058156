/**
 * The government-response form of the staff panel (docs/rules.md#government-response): add, edit and remove a
 * response.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { SUCCESS } from '../../../src-shared/domain/messages.ts';
import type { Petition, PetitionDetail, User } from '../../../src-shared/domain/schemas.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { performStaffAction } from '../../../src-shared/console/staff-action-calls.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { api } from '../../services/api.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { useStaffForm } from '../lib/useStaffForm.ts';
import { NotifyAudience } from './NotifyAudience.tsx';
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
  // The office this member chose for their latest response, to start from (the server remembers it).
  const lastOffice = useAsync(() => api.getLastOffice().then((answer) => answer.office), [user.id]);
  const [draft, setDraft] = useState(() => initialResponseDraft(petition, user));
  const form = useStaffForm<ResponseErrors>('government-response', {});
  const { errors, setErrors, attempt, busy, setBusy, outcome, setOutcome, slot } = form;
  const [confirming, setConfirming] = useState(false);
  const existing = Boolean(petition.governmentResponse);

  // A response saved or removed elsewhere (or by this form) becomes the new starting point.
  useEffect(() => {
    setDraft(initialResponseDraft(petition, user, lastOffice.data ?? null));
  }, [petition.governmentResponse]);

  // The remembered office arrives after the form is on screen: it fills the office only if still empty.
  useEffect(() => {
    if (lastOffice.data === null || lastOffice.data === undefined) return;
    const office = initialResponseDraft(petition, user, lastOffice.data).role;
    setDraft((current) => (current.role ? current : { ...current, role: office }));
  }, [lastOffice.data]);

  const submit = (event: FormEvent) =>
    form.submit(
      event,
      responseErrors(draft, user),
      async () => {
        const saved = await performStaffAction(api, {
          kind: 'response.save',
          petitionId: petition.id,
          baseVersion: petition.version,
          body: buildResponseRequest(draft, petition.id),
        });
        setOutcome(success(existing ? STAFF_TEXTS.responseUpdated : SUCCESS.responseAdded));
        onChanged(saved);
      },
      (error) => failure(error, existing ? STAFF_TEXTS.responseUpdateFailed : STAFF_TEXTS.responseAddFailed),
    );

  const remove = async () => {
    setBusy(true);
    try {
      const saved = await performStaffAction(api, { kind: 'response.remove', petitionId: petition.id, baseVersion: petition.version });
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
          user={user}
          draft={draft}
          errors={errors}
          onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
          textRows={4}
        />
        <NotifyAudience petitionId={petition.id} topic="responses" version={petition.version} />
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
