/**
 * The report dialog (docs/moderation.md#reporting): the reasons as radio buttons, the petition it
 * duplicates (chosen by searching titles) or the member's own words, then a thank-you that says what
 * happens next. The form checks itself with the shared rule; the server checks again and its
 * refusals (already reported, the daily limit, a ban) are shown as it words them.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { ApiError } from '../../../src-shared/api/caller.ts';
import { REPORT_DETAILS_MAX, REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason } from '../../../src-shared/domain/moderation-constants.ts';
import { reportFormErrors } from '../../../src-shared/rules/moderation.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import { characterCount } from '../../../src-shared/rules/validation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { Field } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiReportPetition } from '../../../src-shared/api/visitor-calls.ts';
import { DuplicateChooser } from './DuplicateChooser.tsx';

export const REPORT_FAILED = 'Your report could not be sent. Please try again.';

export default function ReportDialog({ petitionId, onReported, onClose }: { petitionId: number; onReported: () => void; onClose: () => void }) {
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [duplicate, setDuplicate] = useState<number | null>(null);
  const [details, setDetails] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [thanked, setThanked] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  // The form (and the button that had focus) gives way to the thanks: focus moves to its Close button.
  useEffect(() => {
    if (thanked) closeRef.current?.focus();
  }, [thanked]);

  const draft = { reason, duplicateOf: duplicate, details };
  const errors = submitted ? reportFormErrors(draft, petitionId) : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy || Object.keys(reportFormErrors(draft, petitionId)).length > 0 || !reason) return;
    setBusy(true);
    setFailure(null);
    try {
      await apiReportPetition(apiCaller, petitionId, {
        reason,
        ...(reason === 'duplicate' && duplicate ? { duplicateOf: duplicate } : {}),
        ...(details.trim() ? { details } : {}),
      });
      setThanked(true);
      onReported();
    } catch (error) {
      setFailure(error instanceof ApiError && error.status < 500 && error.detail ? error.detail : REPORT_FAILED);
      // Already reported: the page says so once the dialog closes.
      if (error instanceof ApiError && error.status === 409) onReported();
    } finally {
      setBusy(false);
    }
  };

  const detailsLabel = reason === 'other' ? MODERATION_TEXTS.otherDetailsLabel : MODERATION_TEXTS.detailsLabel;
  const count = characterCount(details.trim());
  return (
    <Dialog open title={thanked ? MODERATION_TEXTS.thanksTitle : MODERATION_TEXTS.reportDialogTitle} onClose={onClose} className="report-dialog">
      {thanked ? (
        <div role="status">
          <p>{MODERATION_TEXTS.thanksNext}</p>
          <p>{MODERATION_TEXTS.thanksPrivacy}</p>
          <div className="dialog__actions">
            <button type="button" className="button" ref={closeRef} onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          {failure ? (
            <Notice tone="error" live="alert">
              <p>{failure}</p>
            </Notice>
          ) : null}
          <fieldset className={`form-group${errors.reason ? ' form-group--error' : ''}`} aria-describedby={errors.reason ? `${id}-reason-error` : undefined}>
            <legend className="label">{MODERATION_TEXTS.reportQuestion}</legend>
            {errors.reason ? (
              <p className="error-message" id={`${id}-reason-error`}>
                <span className="visually-hidden">Error:</span> {errors.reason}
              </p>
            ) : null}
            <div className="radios">
              {REPORT_REASONS.map((value, index) => (
                <div className="radios__item" key={value}>
                  <input
                    className="radios__input"
                    type="radio"
                    id={`${id}-${value}`}
                    name={`${id}-reason`}
                    value={value}
                    checked={reason === value}
                    onChange={() => setReason(value)}
                    data-autofocus={index === 0 ? true : undefined}
                  />
                  <label className="radios__label" htmlFor={`${id}-${value}`}>
                    {REPORT_REASON_LABELS[value]}
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
          {reason === 'duplicate' ? (
            <DuplicateChooser petitionId={petitionId} chosen={duplicate} onChoose={setDuplicate} error={errors.duplicateOf ?? null} />
          ) : null}
          {reason !== null ? (
            <Field
              id={`${id}-details`}
              label={detailsLabel}
              error={errors.details ?? null}
              counter={{ text: `${count}/${REPORT_DETAILS_MAX}`, over: count > REPORT_DETAILS_MAX }}
            >
              {(a11y) => (
                <textarea id={`${id}-details`} className="textarea" rows={4} value={details} onChange={(event) => setDetails(event.target.value)} {...a11y} />
              )}
            </Field>
          ) : null}
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--warning" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
              {busy ? 'Sending...' : MODERATION_TEXTS.submitReport}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
