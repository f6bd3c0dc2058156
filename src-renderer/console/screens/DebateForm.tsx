/**
 * The debate form of the console: every debate status with the web panel's fields, labels,
 * validation and request (src-renderer/staff/panel/debateForm.ts), queued in the outbox.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { DEBATE_STATUSES } from '../../../src-shared/domain/constants.ts';
import type { DebateStatus } from '../../../src-shared/domain/constants.ts';
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import { debateSubmissionErrors } from '../../../src-shared/rules/validation.ts';
import type { FieldErrors } from '../../../src-shared/rules/validation.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { Field } from '../../components/Field.tsx';
import {
  DEBATE_FIELD_IDS,
  DEBATE_STATUS_LABELS,
  buildDebateRequest,
  debateFields,
  debateFormTitle,
  debateSubmitLabel,
  debateSummary,
  debateValidationInput,
  initialDebateDraft,
} from '../../staff/panel/debateForm.ts';
import type { DebateDraft } from '../../staff/panel/debateForm.ts';
import { STAFF_TEXTS } from '../../staff/lib/texts.ts';
import { useStores } from '../state/context.tsx';
import { submitOnCtrlEnter } from './formKeys.ts';
import type { QueueAction } from './ResponseForm.tsx';

type DebateErrors = FieldErrors<'date' | 'hansard_url' | 'not_debated_reason'>;

export function DebateForm({ petition, user, onQueue }: { petition: Petition; user: User; onQueue: QueueAction }) {
  const { nav } = useStores();
  const draftKey = `${petition.id}:debate`;
  const info = petition.debateInfo;
  const [draft, setDraftState] = useState<DebateDraft>(
    () => (nav.getState().drafts[draftKey] as DebateDraft | undefined) ?? initialDebateDraft(info),
  );
  const [errors, setErrors] = useState<DebateErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const statusRef = useRef<HTMLSelectElement>(null);
  const fields = debateFields(draft.status);

  useEffect(() => {
    statusRef.current?.focus();
  }, []);

  const setField = <K extends keyof DebateDraft>(key: K, value: DebateDraft[K]) => {
    const next = { ...draft, [key]: value };
    setDraftState(next);
    nav.getState().setDraft(draftKey, next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = debateSubmissionErrors(debateValidationInput(draft));
    setErrors(found);
    if (Object.keys(found).length) {
      setAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    await onQueue(
      {
        kind: 'debate.save',
        petitionId: petition.id,
        baseVersion: petition.version,
        body: buildDebateRequest(draft, petition.id, user),
      },
      draftKey,
      true,
    );
    setBusy(false);
  };

  return (
    <section className="console-form" aria-labelledby="debate-form-title">
      <h2 className="heading-m" id="debate-form-title">
        {debateFormTitle(Boolean(info))}
      </h2>
      <ErrorSummary errors={debateSummary(errors)} focusKey={attempt} headingLevel={3} />
      <form onSubmit={(e) => void submit(e)} onKeyDown={submitOnCtrlEnter} noValidate>
        <Field id={DEBATE_FIELD_IDS.status} label="Debate status">
          {(a11y) => (
            <select
              id={DEBATE_FIELD_IDS.status}
              ref={statusRef}
              className="select"
              value={draft.status}
              onChange={(e) => {
                setErrors({});
                setField('status', e.target.value as DebateStatus);
              }}
              {...a11y}
            >
              {DEBATE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {DEBATE_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {fields.date ? (
          <Field
            id={DEBATE_FIELD_IDS.date}
            label={fields.dateRequired ? 'Debate date' : 'Date the debate was scheduled for (optional)'}
            error={errors.date}
          >
            {(a11y) => (
              <input
                id={DEBATE_FIELD_IDS.date}
                className="input input--date"
                type="date"
                required={fields.dateRequired}
                value={draft.date}
                onChange={(e) => setField('date', e.target.value)}
                {...a11y}
              />
            )}
          </Field>
        ) : null}
        {fields.location ? (
          <Field id={DEBATE_FIELD_IDS.location} label="Location">
            {(a11y) => (
              <input
                id={DEBATE_FIELD_IDS.location}
                className="input"
                type="text"
                autoComplete="off"
                value={draft.location}
                onChange={(e) => setField('location', e.target.value)}
                {...a11y}
              />
            )}
          </Field>
        ) : null}
        {fields.hansard ? (
          <Field
            id={DEBATE_FIELD_IDS.hansard_url}
            label="Hansard link"
            hint="The https:// address of the debate transcript"
            error={errors.hansard_url}
          >
            {(a11y) => (
              <input
                id={DEBATE_FIELD_IDS.hansard_url}
                className="input"
                type="url"
                inputMode="url"
                required
                spellCheck={false}
                value={draft.hansardUrl}
                onChange={(e) => setField('hansardUrl', e.target.value)}
                {...a11y}
              />
            )}
          </Field>
        ) : null}
        {fields.reason ? (
          <Field id={DEBATE_FIELD_IDS.not_debated_reason} label={fields.reasonLabel} error={errors.not_debated_reason}>
            {(a11y) => (
              <textarea
                id={DEBATE_FIELD_IDS.not_debated_reason}
                className="textarea"
                rows={3}
                required
                value={draft.reason}
                onChange={(e) => setField('reason', e.target.value)}
                {...a11y}
              />
            )}
          </Field>
        ) : null}
        <p className="console-hint">Ctrl+Enter queues the decision and opens the next petition.</p>
        <div className="staff-actions">
          <button type="submit" className="button" disabled={busy} aria-keyshortcuts="Control+Enter">
            {debateSubmitLabel(draft.status)}
          </button>
          {info ? (
            <button type="button" className="button button--warning" onClick={() => setConfirming(true)}>
              {STAFF_TEXTS.debateRemove}
            </button>
          ) : null}
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title={STAFF_TEXTS.debateRemoveTitle}
        message={STAFF_TEXTS.debateRemoveConfirm}
        confirmLabel={STAFF_TEXTS.debateRemove}
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void onQueue({ kind: 'debate.remove', petitionId: petition.id, baseVersion: petition.version }, null, false);
        }}
      />
    </section>
  );
}
