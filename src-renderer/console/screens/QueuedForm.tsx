/**
 * What the console's petition forms (debate, government response) share: a draft kept in the
 * navigation store under `${petitionId}:${mode}` so Esc or a jump never loses typing, the shared
 * validation before anything is queued, and the frame around the fields (title, error summary,
 * Ctrl+Enter hint, submit and remove buttons, removal confirmation). A submit becomes an outbox
 * action rather than a call.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { StaffActionInput } from '../../../src-shared/console/staff-actions.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { useStores } from '../state/context.tsx';
import { takeTypedAhead } from '../typeAhead.ts';
import { submitOnCtrlEnter } from './formKeys.ts';

export type QueueAction = (action: StaffActionInput, draftKey: string | null, moveOn: boolean) => Promise<void>;

/**
 * The draft, errors and busy flag of one console form. `firstFieldRef` goes on the control that
 * takes focus when the form opens.
 */
export function useQueuedForm<Draft extends object, Errors extends object, First extends HTMLElement>(
  draftKey: string,
  initialDraft: () => Draft,
  validate: (draft: Draft) => Errors,
  /** Where keys typed before the form opened go (typeAhead.ts); without it they are dropped. */
  typedAhead?: (draft: Draft, typed: string) => Partial<Draft>,
) {
  const { nav } = useStores();
  const [draft, setDraftState] = useState<Draft>(() => (nav.getState().drafts[draftKey] as Draft | undefined) ?? initialDraft());
  const [errors, setErrors] = useState<Errors>({} as Errors);
  // A new value on every refused submit, so the summary takes focus again even if unchanged.
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const firstFieldRef = useRef<First>(null);

  const update = (patch: Partial<Draft>) => {
    const next = { ...draft, ...patch };
    setDraftState(next);
    nav.getState().setDraft(draftKey, next);
  };

  useEffect(() => {
    firstFieldRef.current?.focus();
    const typed = takeTypedAhead();
    if (typed && typedAhead) update(typedAhead(draft, typed));
  }, []);

  /** Shows the errors and stops if there are any; otherwise queues while busy. */
  const submit = async (event: FormEvent, queue: () => Promise<void>) => {
    event.preventDefault();
    const found = validate(draft);
    setErrors(found);
    if (Object.keys(found).length) {
      setAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    await queue();
    setBusy(false);
  };

  return { draft, update, errors, setErrors, attempt, busy, submit, firstFieldRef };
}

export function QueuedForm({
  titleId,
  title,
  summary,
  attempt,
  onSubmit,
  hint,
  busy,
  submitLabel,
  removal,
  children,
}: {
  titleId: string;
  title: string;
  summary: Array<{ fieldId: string; message: string }>;
  attempt: number;
  onSubmit: (event: FormEvent) => Promise<void>;
  hint: string;
  busy: boolean;
  submitLabel: string;
  /** Offered when there is something to remove; queued only after the confirmation. */
  removal: { texts: { title: string; message: string; confirmLabel: string }; onConfirm: () => void } | null;
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="console-form" aria-labelledby={titleId}>
      <h2 className="heading-m" id={titleId}>
        {title}
      </h2>
      <ErrorSummary errors={summary} focusKey={attempt} headingLevel={3} />
      <form onSubmit={(e) => void onSubmit(e)} onKeyDown={submitOnCtrlEnter} noValidate>
        {children}
        <p className="console-hint">{hint}</p>
        <div className="staff-actions">
          <button type="submit" className="button" disabled={busy} aria-keyshortcuts="Control+Enter">
            {submitLabel}
          </button>
          {removal ? (
            <button type="button" className="button button--warning" onClick={() => setConfirming(true)}>
              {removal.texts.confirmLabel}
            </button>
          ) : null}
        </div>
      </form>
      {removal ? (
        <ConfirmDialog
          open={confirming}
          {...removal.texts}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            removal.onConfirm();
          }}
        />
      ) : null}
    </section>
  );
}
