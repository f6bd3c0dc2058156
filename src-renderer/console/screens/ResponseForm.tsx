/**
 * The government-response form of the console: the web panel's texts, validation and request
 * (src-renderer/staff/panel/responseForm.ts, src-shared validation), but the result is an outbox
 * action instead of a call. The office chosen last is offered again for the next petition.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import type { StaffActionInput } from '../../../src-shared/console/staff-actions.ts';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { RemoveResponseDialog, ResponseFields } from '../../staff/panel/ResponseFields.tsx';
import {
  buildResponseRequest,
  initialResponseDraft,
  responseErrors,
  responseSummary,
} from '../../staff/panel/responseForm.ts';
import type { ResponseDraft, ResponseErrors } from '../../staff/panel/responseForm.ts';
import { STAFF_TEXTS } from '../../staff/lib/texts.ts';
import { useStores } from '../state/context.tsx';
import { submitOnCtrlEnter } from './formKeys.ts';

export const LAST_ROLE_KEY = 'last-role';

export type QueueAction = (action: StaffActionInput, draftKey: string | null, moveOn: boolean) => Promise<void>;

export function ResponseForm({ petition, user, onQueue }: { petition: Petition; user: User; onQueue: QueueAction }) {
  const { nav } = useStores();
  const draftKey = `${petition.id}:respond`;
  const [draft, setDraftState] = useState<ResponseDraft>(() => {
    const saved = nav.getState().drafts[draftKey] as ResponseDraft | undefined;
    if (saved) return saved;
    const initial = initialResponseDraft(petition, user);
    const lastRole = nav.getState().drafts[LAST_ROLE_KEY];
    return { ...initial, role: initial.role || (typeof lastRole === 'string' ? lastRole : '') };
  });
  const [errors, setErrors] = useState<ResponseErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const existing = Boolean(petition.governmentResponse);

  useEffect(() => {
    textRef.current?.focus();
  }, []);

  const setDraft = (patch: Partial<ResponseDraft>) => {
    const next = { ...draft, ...patch };
    setDraftState(next);
    nav.getState().setDraft(draftKey, next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = responseErrors(draft);
    setErrors(found);
    if (Object.keys(found).length) {
      setAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    nav.getState().setDraft(LAST_ROLE_KEY, draft.role);
    await onQueue(
      {
        kind: 'response.save',
        petitionId: petition.id,
        baseVersion: petition.version,
        body: buildResponseRequest(draft, petition.id),
      },
      draftKey,
      true,
    );
    setBusy(false);
  };

  return (
    <section className="console-form" aria-labelledby="response-form-title">
      <h2 className="heading-m" id="response-form-title">
        {existing ? STAFF_TEXTS.responseHeadingEdit : STAFF_TEXTS.responseHeadingAdd}
      </h2>
      <ErrorSummary errors={responseSummary(errors)} focusKey={attempt} headingLevel={3} />
      <form onSubmit={(e) => void submit(e)} onKeyDown={submitOnCtrlEnter} noValidate>
        <ResponseFields draft={draft} errors={errors} onChange={setDraft} textRows={7} textRef={textRef} />
        <p className="console-hint">Ctrl+Enter queues the response and opens the next petition.</p>
        <div className="staff-actions">
          <button type="submit" className="button" disabled={busy} aria-keyshortcuts="Control+Enter">
            {existing ? STAFF_TEXTS.responseSubmitEdit : STAFF_TEXTS.responseSubmitAdd}
          </button>
          {existing ? (
            <button type="button" className="button button--warning" onClick={() => setConfirming(true)}>
              {STAFF_TEXTS.responseRemove}
            </button>
          ) : null}
        </div>
      </form>
      <RemoveResponseDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void onQueue({ kind: 'response.remove', petitionId: petition.id, baseVersion: petition.version }, null, false);
        }}
      />
    </section>
  );
}
