/**
 * The debate part of the staff panel (docs/rules.md#debate-information): the current debate state, a 'Schedule Debate'
 * button that opens the form, and removal with a confirmation.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { SUCCESS } from '../../../src-shared/domain/messages.ts';
import type { Petition, PetitionDetail, User } from '../../../src-shared/domain/schemas.ts';
import { debateBoxText } from '../../../src-shared/rules/classification.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { performStaffAction } from '../../../src-shared/console/staff-action-calls.ts';
import { api } from '../../services/api.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { useStaffForm } from '../lib/useStaffForm.ts';
import { DebateFields } from './DebateFields.tsx';
import { NotifyAudience } from './NotifyAudience.tsx';
import {
  DEBATE_REMOVAL,
  buildDebateRequest,
  debateErrors,
  debateFormTitle,
  debateSubmitLabel,
  debateSuccessText,
  debateSummary,
  initialDebateDraft,
} from './debateForm.ts';
import type { DebateFormDraft, DebateErrors } from './debateForm.ts';

export function DebateSection({
  petition,
  user,
  onChanged,
}: {
  petition: PetitionDetail;
  user: User;
  onChanged: (p?: Petition) => void;
}) {
  const info = petition.debateInfo;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DebateFormDraft>(() => initialDebateDraft(info));
  const form = useStaffForm<DebateErrors>('debate', {});
  const { errors, setErrors, attempt, busy, setBusy, outcome, setOutcome, slot } = form;
  const [confirming, setConfirming] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  const statusRef = useRef<HTMLSelectElement>(null);
  const pendingFocus = useRef<'status' | 'opener' | null>(null);
  const infoKey = JSON.stringify(info);

  useEffect(() => {
    if (!open) setDraft(initialDebateDraft(info));
  }, [infoKey]);

  useEffect(() => {
    const target = pendingFocus.current;
    pendingFocus.current = null;
    if (target === 'status') statusRef.current?.focus();
    else if (target === 'opener') openerRef.current?.focus();
  });

  const openForm = () => {
    setDraft(initialDebateDraft(info));
    setErrors({});
    setOutcome(null);
    pendingFocus.current = 'status';
    setOpen(true);
  };

  const closeForm = () => {
    setErrors({});
    slot.release();
    pendingFocus.current = 'opener';
    setOpen(false);
  };

  const submit = (event: FormEvent) =>
    form.submit(
      event,
      debateErrors(draft),
      async () => {
        const saved = await performStaffAction(api, {
          kind: 'debate.save',
          petitionId: petition.id,
          baseVersion: petition.version,
          body: buildDebateRequest(draft, petition.id, user),
        });
        form.focusOutcome();
        setOpen(false);
        setOutcome(success(debateSuccessText(draft.status)));
        onChanged(saved);
      },
      (error) => failure(error, STAFF_TEXTS.debateSaveFailed),
    );

  const remove = async () => {
    setBusy(true);
    try {
      const saved = await performStaffAction(api, { kind: 'debate.remove', petitionId: petition.id, baseVersion: petition.version });
      form.focusOutcome();
      setOpen(false);
      setConfirming(false);
      setOutcome(success(SUCCESS.debateRemoved));
      onChanged(saved);
    } catch (error) {
      setConfirming(false);
      setOutcome(failure(error, STAFF_TEXTS.debateRemoveFailed));
    } finally {
      setBusy(false);
    }
  };

  const setField = <K extends keyof DebateFormDraft>(key: K, value: DebateFormDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  return (
    <section className="staff-section" aria-labelledby="debate-admin-heading">
      <h3 className="heading-s" id="debate-admin-heading">
        {STAFF_TEXTS.debateHeading}
      </h3>
      <p className="staff-current">{debateBoxText(info) ?? STAFF_TEXTS.debateNone}</p>
      <OutcomeNotice
        outcome={outcome}
        focusRef={form.outcomeRef}
        onDismiss={() => setOutcome(null)}
        onReload={() => {
          setOutcome(null);
          setOpen(false);
          onChanged();
        }}
        reloadLabel={STAFF_TEXTS.reloadPetition}
      />
      {!open ? (
        <div className="staff-actions">
          <button
            type="button"
            className="button"
            ref={openerRef}
            aria-expanded="false"
            aria-controls="debate-form"
            onClick={openForm}
          >
            {info ? STAFF_TEXTS.debateOpenExisting : STAFF_TEXTS.debateOpen}
          </button>
          {info ? (
            <button type="button" className="button button--warning" disabled={busy} onClick={() => setConfirming(true)}>
              {STAFF_TEXTS.debateRemove}
            </button>
          ) : null}
        </div>
      ) : (
        <form id="debate-form" className="staff-subform" onSubmit={submit} noValidate aria-labelledby="debate-form-title">
          <h4 className="heading-s" id="debate-form-title">
            {debateFormTitle(Boolean(info))}
          </h4>
          {slot.visible ? <ErrorSummary errors={debateSummary(errors)} focusKey={attempt} /> : null}
          <DebateFields
            draft={draft}
            errors={errors}
            setField={setField}
            onStatusChange={() => setErrors({})}
            statusRef={statusRef}
          />
          <NotifyAudience petitionId={petition.id} topic="debates" version={petition.version} />
          <div className="staff-actions">
            <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
              {debateSubmitLabel(draft.status)}
            </button>
            <button type="button" className="button button--secondary" onClick={closeForm}>
              {STAFF_TEXTS.closeForm}
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={confirming}
        {...DEBATE_REMOVAL}
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
