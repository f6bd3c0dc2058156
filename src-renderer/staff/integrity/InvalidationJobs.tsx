/** Invalidations and restores with their progress (docs/integrity.md#how-a-job-runs), cancel and restore. */
import { useRef, useState } from 'react';
import type { InvalidationJob } from '../../../src-shared/domain/integrity-schemas.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import { Notice } from '../../components/Notice.tsx';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success, type Outcome } from '../lib/outcome.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { canCancelJob, canRestoreJob } from '../../../src-shared/rules/signature-integrity.ts';
import { describeCriteria, INTEGRITY_TEXTS, jobProgress, jobState, jobTitle } from './integrityView.ts';

export function InvalidationJobs({ jobs, failed, onChanged }: { jobs: InvalidationJob[] | null; failed: boolean; onChanged: () => void }) {
  const writes = useStaffWrites();
  const [restoring, setRestoring] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const outcomeRef = useRef<HTMLDivElement>(null);

  const act = async (work: () => Promise<unknown>, done: string, fallback: string) => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await work();
      setOutcome(isQueued(result) ? queuedOutcome(result) : success(done));
      setRestoring(null);
      setReason('');
      onChanged();
    } catch (error) {
      setOutcome(failure(error, fallback));
    } finally {
      setBusy(false);
      requestAnimationFrame(() => outcomeRef.current?.focus());
    }
  };

  return (
    <section className="staff-danger__item" aria-labelledby="jobs-heading">
      <h3 className="heading-s" id="jobs-heading">
        {INTEGRITY_TEXTS.jobsHeading}
      </h3>
      <OutcomeNotice outcome={outcome} focusRef={outcomeRef} onDismiss={() => setOutcome(null)} />
      {failed ? (
        <Notice tone="error">
          <p>{INTEGRITY_TEXTS.jobsFailed}</p>
        </Notice>
      ) : null}
      {jobs && jobs.length === 0 ? <p>{INTEGRITY_TEXTS.jobsEmpty}</p> : null}
      {jobs && jobs.length > 0 ? (
        <ul className="integrity-jobs">
          {jobs.map((job) => (
            <li key={job.id} className="integrity-jobs__item">
              <p>
                <strong>{jobTitle(job)}</strong>: {jobState(job)}
              </p>
              {job.criteria ? <p>{describeCriteria(job.criteria)}</p> : null}
              <p className="hint">
                Asked by {job.requestedBy} ({job.requestedByRole}) on {formatDateTime(job.requestedAt)}: {job.reason}
              </p>
              <p>
                <progress max={Math.max(job.total, 1)} value={job.state === 'finished' ? Math.max(job.total, 1) : job.processed} aria-label={`Progress of ${jobTitle(job)}`} />{' '}
                {jobProgress(job)}
              </p>
              {job.lastError ? <p className="hint">Last error (retried): {job.lastError}</p> : null}
              <div className="staff-actions">
                {canCancelJob(job) ? (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={busy}
                    onClick={() => void act(() => writes.perform({ kind: 'signatures.cancel', jobId: job.id }), `${jobTitle(job)} is stopping.`, 'The job could not be cancelled.')}
                  >
                    Cancel<span className="visually-hidden"> {jobTitle(job)}</span>
                  </button>
                ) : null}
                {canRestoreJob(job) && restoring !== job.id ? (
                  <button type="button" className="button button--secondary" disabled={busy} onClick={() => setRestoring(job.id)}>
                    Restore signatures<span className="visually-hidden"> of {jobTitle(job)}</span>
                  </button>
                ) : null}
              </div>
              {restoring === job.id ? (
                <form
                  className="staff-form"
                  noValidate
                  onSubmit={(event) => {
                    event.preventDefault();
                    if (!reason.trim()) {
                      setOutcome({ tone: 'error', text: INTEGRITY_TEXTS.restoreReasonMissing });
                      return;
                    }
                    void act(() => writes.perform({ kind: 'signatures.restore', jobId: job.id, reason }), `Restore of ${jobTitle(job)} requested.`, 'The restore could not be requested.');
                  }}
                >
                  <div className="form-group">
                    <label className="label" htmlFor={`restore-reason-${job.id}`}>
                      Reason for restoring {jobTitle(job)}
                    </label>
                    <textarea id={`restore-reason-${job.id}`} className="textarea" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
                  </div>
                  <div className="staff-actions">
                    <button type="submit" className="button" disabled={busy}>
                      Restore
                    </button>
                    <button type="button" className="button button--secondary" onClick={() => setRestoring(null)}>
                      Keep invalidated
                    </button>
                  </div>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
