/**
 * GOV.UK-style error summary for forms. It takes focus whenever `focusKey` changes (pass a
 * counter bumped on every failed submit), and each message links to its field.
 * Usage: <ErrorSummary errors={[{ fieldId: 'petition-title', message }]} focusKey={attempt} />
 */
import { useEffect, useId, useRef } from 'react';
import type { MouseEvent } from 'react';

export interface SummaryError {
  /** id of the control to focus; the link points at it. */
  fieldId: string;
  message: string;
}

export function ErrorSummary({
  errors,
  focusKey,
  title = 'There is a problem',
  headingLevel = 2,
}: {
  errors: readonly SummaryError[];
  focusKey?: number;
  title?: string;
  /** Inside a section headed h2, pass 3 so the page's heading order stays valid. */
  headingLevel?: 2 | 3;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  useEffect(() => {
    if (errors.length > 0) ref.current?.focus();
    // Only a new submit attempt moves focus, not typing that changes the messages.
  }, [focusKey]);

  if (errors.length === 0) return null;

  const jump = (event: MouseEvent<HTMLAnchorElement>, fieldId: string) => {
    const field = document.getElementById(fieldId);
    if (!field) return;
    event.preventDefault();
    field.scrollIntoView({ block: 'center' });
    field.focus();
  };

  return (
    <div className="error-summary" ref={ref} tabIndex={-1} role="alert" aria-labelledby={titleId}>
      <Heading className="error-summary__title" id={titleId}>
        {title}
      </Heading>
      <ul className="error-summary__list">
        {errors.map((e) => (
          <li key={`${e.fieldId}:${e.message}`}>
            <a href={`#${e.fieldId}`} onClick={(event) => jump(event, e.fieldId)}>
              {e.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
