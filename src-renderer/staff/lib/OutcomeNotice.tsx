/**
 * Where a staff section reports the result of its last action. The two live regions are always
 * in the page, so screen readers announce a new message as soon as it is written into them
 * (success politely, failure at once). The wrapper can take focus after an action removed the
 * control that had it (e.g. after removing a response).
 */
import type { Ref } from 'react';
import { Notice } from '../../components/Notice.tsx';
import type { Outcome } from './outcome.ts';

export function OutcomeNotice({
  outcome,
  onDismiss,
  onReload,
  reloadLabel,
  focusRef,
}: {
  outcome: Outcome | null;
  onDismiss?: () => void;
  /** Offered with a 412 conflict: load the current version again. */
  onReload?: () => void;
  reloadLabel?: string;
  focusRef?: Ref<HTMLDivElement>;
}) {
  const body = outcome ? (
    <Notice tone={outcome.tone} onDismiss={onDismiss}>
      <p>{outcome.text}</p>
      {outcome.detail ? <p>{outcome.detail}</p> : null}
      {outcome.conflict && onReload ? (
        <button type="button" className="button button--secondary" onClick={onReload}>
          {reloadLabel ?? 'Reload'}
        </button>
      ) : null}
    </Notice>
  ) : null;
  return (
    <div className="staff-outcome" ref={focusRef} tabIndex={-1}>
      <div role="status">{outcome?.tone === 'success' ? body : null}</div>
      <div role="alert">{outcome?.tone === 'error' ? body : null}</div>
    </div>
  );
}
