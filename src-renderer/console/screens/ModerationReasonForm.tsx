/**
 * A decision that needs a reason, as one small form: a typed reason (hide, ban) or a standard one
 * chosen from the administrator's list (reject), checked by the shared rule before anything is
 * queued; Enter in the field submits. Used by a case and by the bulk bar.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { RejectionReason } from '../../../src-shared/domain/moderation-schemas.ts';

interface ReasonFormProps {
  id: string;
  label: string;
  submitLabel: string;
  /** Typed text, or a choice from these reasons. */
  reasons?: readonly RejectionReason[];
  /** The shared rule's message for a value it refuses, or null. */
  check: (value: string) => string | null;
  onSubmit: (value: string) => Promise<boolean> | boolean;
  disabled?: boolean;
  keyHint?: string;
  /** Receives the field, so a key can put focus on it. */
  fieldRef?: (field: HTMLInputElement | HTMLSelectElement | null) => void;
}

export function ReasonForm({ id, label, submitLabel, reasons, check, onSubmit, disabled = false, keyHint, fieldRef }: ReasonFormProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const errorId = `${id}-error`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check(value);
    setError(found);
    if (found) return;
    // The value stays when queueing failed, so nothing typed is lost.
    if (await onSubmit(value)) setValue('');
  };
  const described = error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
  return (
    <form className={`console-mod-form form-group${error ? ' form-group--error' : ''}`} onSubmit={(e) => void submit(e)} noValidate>
      <label className="label" htmlFor={id}>
        {label}
        {keyHint ? (
          <>
            {' '}
            <kbd>{keyHint}</kbd>
          </>
        ) : null}
      </label>
      {error ? (
        <p className="error-message" id={errorId}>
          <span className="visually-hidden">Error:</span> {error}
        </p>
      ) : null}
      <div className="console-mod-form__row">
        {reasons ? (
          <select
            id={id}
            ref={fieldRef}
            className="select"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            // A select does not submit its form on Enter by itself.
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
            {...described}
          >
            <option value="">Choose a reason</option>
            {reasons.map((reason) => (
              <option key={reason.code} value={reason.code}>
                {reason.title}
                {reason.hidden ? ' (hidden: no public page)' : ''}
              </option>
            ))}
          </select>
        ) : (
          <input id={id} ref={fieldRef} className="input" type="text" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} {...described} />
        )}
        <button type="submit" className="button button--warning console-small" disabled={disabled}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
