/**
 * The state every staff form keeps around a submit: its validation errors, the error-summary
 * slot, the busy flag and the outcome of the last action. Sharing it keeps the forms consistent
 * about when the summary is shown and re-focused, and when the previous outcome is cleared.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Outcome } from './outcome.ts';
import { useSummarySlot } from './summarySlot.tsx';

/** Field-error records are empty when valid; single-message forms use null (or ''). */
function hasErrors(errors: unknown): boolean {
  return typeof errors === 'object' && errors !== null ? Object.keys(errors).length > 0 : Boolean(errors);
}

export function useStaffForm<E>(owner: string, noErrors: E) {
  const [errors, setErrors] = useState<E>(noErrors);
  // A new value on every refused submit, so the summary takes focus again even if unchanged.
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const slot = useSummarySlot(owner);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const outcomePending = useRef(false);

  useEffect(() => {
    if (outcomePending.current && outcome) outcomeRef.current?.focus();
    outcomePending.current = false;
  }, [outcome]);

  /**
   * Shows `found` and stops if there are any; otherwise runs `action` while busy. A rejection is
   * reported through `fail`; without it the action is trusted to report its own failures.
   */
  const submit = async (
    event: FormEvent,
    found: E,
    action: () => Promise<void>,
    fail?: (error: unknown) => Outcome,
  ) => {
    event.preventDefault();
    setErrors(found);
    if (hasErrors(found)) {
      setOutcome(null);
      setAttempt((n) => n + 1);
      slot.claim();
      return;
    }
    slot.release();
    setBusy(true);
    setOutcome(null);
    try {
      await action();
    } catch (error) {
      if (!fail) throw error;
      setOutcome(fail(error));
    } finally {
      setBusy(false);
    }
  };

  return {
    errors,
    setErrors,
    attempt,
    busy,
    setBusy,
    outcome,
    setOutcome,
    slot,
    submit,
    outcomeRef,
    /**
     * Move focus to the next outcome: for actions that remove the control that had focus, so
     * keyboard users are not dropped at the top of the page.
     */
    focusOutcome: () => {
      outcomePending.current = true;
    },
  };
}
