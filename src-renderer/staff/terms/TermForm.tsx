/**
 * Name, start date, end date and status of a parliamentary term ('Please fill in all fields': docs/rules.md#term-form).
 * Used by 'Create New Term' and by the inline edit of a listed term.
 */
import { useRef, useState } from 'react';
import type { FormEvent, Ref } from 'react';
import type { TermRequest } from '../../../src-shared/domain/schemas.ts';
import { termFormErrors } from '../../../src-shared/rules/validation.ts';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { Field } from '../../components/Field.tsx';
import { useSummarySlot } from '../lib/summarySlot.tsx';
import { TERM_STATUS_OPTIONS, termErrorField, termRequestFromDraft } from './termForm.ts';
import type { TermFormDraft, TermStatusChoice } from './termForm.ts';

export function TermForm({
  idPrefix,
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  nameRef,
  labelledBy,
}: {
  idPrefix: string;
  initial: TermFormDraft;
  submitLabel: string;
  busy: boolean;
  /** Resolves true when the server accepted it; a create form then starts empty again. */
  onSubmit: (request: TermRequest) => Promise<boolean>;
  onCancel?: () => void;
  nameRef?: Ref<HTMLInputElement>;
  labelledBy?: string;
}) {
  const [draft, setDraft] = useState<TermFormDraft>(initial);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const slot = useSummarySlot(`term-form-${idPrefix}`);
  const initialRef = useRef(initial);

  const ids = {
    name: `${idPrefix}-name`,
    startDate: `${idPrefix}-start`,
    endDate: `${idPrefix}-end`,
    status: `${idPrefix}-status`,
  };
  const errorField = error ? termErrorField(draft) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const message = termFormErrors(draft);
    setError(message);
    if (message) {
      setAttempt((n) => n + 1);
      slot.claim();
      return;
    }
    slot.release();
    const accepted = await onSubmit(termRequestFromDraft(draft));
    if (accepted && !onCancel) setDraft(initialRef.current);
  };

  const set = <K extends keyof TermFormDraft>(key: K, value: TermFormDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  return (
    <form className="staff-form term-form" onSubmit={submit} noValidate aria-labelledby={labelledBy}>
      {slot.visible && error && errorField ? (
        <ErrorSummary errors={[{ fieldId: ids[errorField], message: error }]} focusKey={attempt} />
      ) : null}
      <Field id={ids.name} label="Term name" error={errorField === 'name' ? error : null}>
        {(a11y) => (
          <input
            id={ids.name}
            ref={nameRef}
            className="input"
            type="text"
            autoComplete="off"
            required
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
            {...a11y}
          />
        )}
      </Field>
      <div className="term-form__dates">
        <Field id={ids.startDate} label="Start date" error={errorField === 'startDate' ? error : null}>
          {(a11y) => (
            <input
              id={ids.startDate}
              className="input input--date"
              type="date"
              required
              value={draft.startDate}
              onChange={(e) => set('startDate', e.target.value)}
              {...a11y}
            />
          )}
        </Field>
        <Field id={ids.endDate} label="End date" error={errorField === 'endDate' ? error : null}>
          {(a11y) => (
            <input
              id={ids.endDate}
              className="input input--date"
              type="date"
              required
              value={draft.endDate}
              onChange={(e) => set('endDate', e.target.value)}
              {...a11y}
            />
          )}
        </Field>
      </div>
      <Field
        id={ids.status}
        label="Status"
        hint="Automatic follows the dates: upcoming before the start, current until the end, then completed."
      >
        {(a11y) => (
          <select
            id={ids.status}
            className="select"
            value={draft.status}
            onChange={(e) => set('status', e.target.value as TermStatusChoice)}
            {...a11y}
          >
            {TERM_STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="staff-actions">
        <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
