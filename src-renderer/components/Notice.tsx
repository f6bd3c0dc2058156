/**
 * A boxed message. `tone` picks the colour; `live` makes it announce itself: 'alert' for failures
 * the user must notice now, 'status' for confirmations. Static explanations need neither.
 * Usage: <Notice tone="error" live="alert" title="Petition Closed">text</Notice>
 */
import type { ReactNode } from 'react';

export type NoticeTone = 'info' | 'success' | 'warning' | 'error' | 'orange';

export interface NoticeProps {
  tone?: NoticeTone;
  title?: ReactNode;
  /** Heading level for the title; by default the title is bold text, not a heading. */
  headingLevel?: 2 | 3;
  live?: 'alert' | 'status';
  onDismiss?: () => void;
  className?: string;
  id?: string;
  children?: ReactNode;
}

export function Notice({ tone = 'info', title, headingLevel, live, onDismiss, className, id, children }: NoticeProps) {
  const Heading = headingLevel ? (`h${headingLevel}` as const) : null;
  return (
    <div id={id} className={`notice notice--${tone}${className ? ` ${className}` : ''}`} role={live}>
      <div className="notice__body">
        {title && Heading ? <Heading className="notice__title">{title}</Heading> : null}
        {title && !Heading ? <p className="notice__title">{title}</p> : null}
        {children}
      </div>
      {onDismiss ? (
        <button type="button" className="notice__dismiss" onClick={onDismiss}>
          Dismiss<span className="visually-hidden"> message</span>
        </button>
      ) : null}
    </div>
  );
}
