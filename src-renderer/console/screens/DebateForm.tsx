/**
 * The debate form of the console: every debate status with the web panel's fields, labels,
 * validation and request (src-renderer/staff/panel/debateForm.ts), queued in the outbox.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { DebateFields, RemoveDebateDialog } from '../../staff/panel/DebateFields.tsx';
import {
  buildDebateRequest,
  debateErrors,
  debateFormTitle,
  debateSubmitLabel,
  debateSummary,
  initialDebateDraft,
} from '../../staff/panel/debateForm.ts';
import type { DebateDraft, DebateErrors } from '../../staff/panel/debateForm.ts';
import { STAFF_TEXTS } from '../../staff/lib/texts.ts';
import { useStores } from '../state/context.tsx';
import { submitOnCtrlEnter } from './formKeys.ts';
import type { QueueAction } from './ResponseForm.tsx';

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
    const found = debateErrors(draft);
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
        <DebateFields
          draft={draft}
          errors={errors}
          setField={setField}
          onStatusChange={() => setErrors({})}
          statusRef={statusRef}
        />
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
      <RemoveDebateDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void onQueue({ kind: 'debate.remove', petitionId: petition.id, baseVersion: petition.version }, null, false);
        }}
      />
    </section>
  );
}
