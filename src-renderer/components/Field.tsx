/**
 * A labelled form field with hint, error and an optional counter. The control itself is passed as
 * a render function receiving the ids it must reference, so any input, textarea or select fits.
 * Usage:
 *   <Field id="title" label="Title" hint="…" error={errors.title} counter="12/150">
 *     {(a11y) => <input id="title" {...a11y} />}
 *   </Field>
 */
import type { ReactNode } from 'react';

export interface FieldA11yProps {
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export function describedBy(...ids: Array<string | false | null | undefined>): string | undefined {
  const list = ids.filter(Boolean).join(' ');
  return list || undefined;
}

export function Field({
  id,
  label,
  hint,
  error,
  counter,
  labelClassName,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  counter?: { text: string; over: boolean } | null;
  labelClassName?: string;
  children: (a11y: FieldA11yProps) => ReactNode;
}) {
  const hintId = hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const counterId = counter ? `${id}-counter` : null;
  const a11y: FieldA11yProps = { 'aria-describedby': describedBy(hintId, errorId, counterId) };
  if (error) a11y['aria-invalid'] = true;
  return (
    <div className={`form-group${error ? ' form-group--error' : ''}`}>
      <label className={labelClassName ?? 'label'} htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <div className="hint" id={hintId ?? undefined}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <p className="error-message" id={errorId ?? undefined}>
          <span className="visually-hidden">Error:</span> {error}
        </p>
      ) : null}
      {children(a11y)}
      {counter ? (
        <p className={`counter${counter.over ? ' counter--over' : ''}`} id={counterId ?? undefined}>
          {counter.text}
          <span className="visually-hidden"> characters</span>
        </p>
      ) : null}
    </div>
  );
}
