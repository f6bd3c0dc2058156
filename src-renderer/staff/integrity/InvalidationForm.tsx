/**
 * Invalidation with a preview (docs/integrity.md#invalidation): criteria, then the server's count,
 * the petitions' counts and statuses afterwards and a sample, then the confirmation, performed as a
 * staff action (the console queues it, also offline, where the preview cannot be made).
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { ApiError } from '../../../src-shared/api/client.ts';
import type { InvalidationPreview } from '../../../src-shared/domain/integrity-schemas.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import { Field } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { api } from '../../services/api.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success, type Outcome } from '../lib/outcome.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { criteriaFromForm, EMPTY_CRITERIA, INTEGRITY_TEXTS, type CriteriaForm } from './integrityView.ts';

const IDS = {
  petitionId: 'invalidate-petition',
  signedFrom: 'invalidate-from',
  signedTo: 'invalidate-to',
  youngerThanDays: 'invalidate-age',
  userIds: 'invalidate-users',
  reason: 'invalidate-reason',
} as const;

export function InvalidationForm({ petitionId, onRequested }: { petitionId: number | null; onRequested: () => void }) {
  const writes = useStaffWrites();
  const [form, setForm] = useState<CriteriaForm>(EMPTY_CRITERIA);
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<InvalidationPreview | null>(null);
  const [previewProblem, setPreviewProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const previewRef = useRef<HTMLHeadingElement>(null);

  // "Review signatures" on the unusual-signing table fills in its petition and young accounts.
  useEffect(() => {
    if (petitionId === null) return;
    setForm({ ...EMPTY_CRITERIA, petitionId: String(petitionId), youngerThanDays: '30' });
    setPreview(null);
    document.getElementById(IDS.petitionId)?.focus();
  }, [petitionId]);

  const change = (key: keyof CriteriaForm) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    // A preview belongs to the criteria it was made for.
    setPreview(null);
  };

  const runPreview = async () => {
    setBusy(true);
    setPreviewProblem(null);
    setOutcome(null);
    try {
      setPreview(await api.previewInvalidation(criteriaFromForm(form)));
      requestAnimationFrame(() => previewRef.current?.focus());
    } catch (error) {
      setPreview(null);
      // A refusal of the criteria says what is wrong; in the console anything else means the server is out of reach.
      const refused = error instanceof ApiError && error.status === 400;
      setPreviewProblem(writes.queues && !refused ? INTEGRITY_TEXTS.previewOffline : failure(error, INTEGRITY_TEXTS.previewFailed).text);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setOutcome({ tone: 'error', text: INTEGRITY_TEXTS.reasonMissing });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const done = await writes.perform({
        kind: 'signatures.invalidate',
        criteria: criteriaFromForm(form),
        reason,
        previewedMatching: preview?.matching ?? null,
      });
      setOutcome(isQueued(done) ? queuedOutcome(done) : success(`Invalidation #${(done as { id: number }).id} requested: it runs in the background.`));
      setPreview(null);
      setReason('');
      onRequested();
    } catch (error) {
      setOutcome(failure(error, INTEGRITY_TEXTS.invalidateFailed));
    } finally {
      setBusy(false);
      requestAnimationFrame(() => outcomeRef.current?.focus());
    }
  };

  const text = (key: keyof CriteriaForm, label: string, hint: string, type = 'text') => (
    <Field id={IDS[key]} label={label} hint={hint}>
      {(a11y) => (
        <input
          id={IDS[key]}
          className={type === 'text' ? 'input' : 'input input--short'}
          type={type}
          autoComplete="off"
          spellCheck={false}
          value={form[key]}
          onChange={(e) => change(key)(e.target.value)}
          {...(key === 'youngerThanDays' || key === 'petitionId' ? { inputMode: 'numeric' as const } : {})}
          {...a11y}
        />
      )}
    </Field>
  );

  return (
    <section className="staff-danger__item" aria-labelledby="invalidate-heading">
      <h3 className="heading-s" id="invalidate-heading">
        {INTEGRITY_TEXTS.invalidateHeading}
      </h3>
      <p>{INTEGRITY_TEXTS.invalidateIntro}</p>
      <OutcomeNotice outcome={outcome} focusRef={outcomeRef} onDismiss={() => setOutcome(null)} />
      <form className="staff-form" onSubmit={confirm} noValidate aria-labelledby="invalidate-heading">
        {text('petitionId', 'Petition id', 'Leave empty for every petition.')}
        {text('signedFrom', 'Signed from', 'Optional; your computer\'s time.', 'datetime-local')}
        {text('signedTo', 'Signed before', 'Optional; your computer\'s time.', 'datetime-local')}
        {text('youngerThanDays', 'Accounts younger than (days)', 'Optional, for example 30.')}
        <Field id={IDS.userIds} label="ROBLOX user ids" hint="Optional; separated by commas or spaces.">
          {(a11y) => (
            <textarea id={IDS.userIds} className="textarea" rows={2} value={form.userIds} onChange={(e) => change('userIds')(e.target.value)} {...a11y} />
          )}
        </Field>
        <div className="staff-actions">
          <button type="button" className="button button--secondary" disabled={busy} aria-busy={busy || undefined} onClick={() => void runPreview()}>
            Preview
          </button>
        </div>
        {previewProblem ? (
          <Notice tone="warning" live="status">
            <p>{previewProblem}</p>
          </Notice>
        ) : null}
        {preview ? (
          <div className="integrity-preview">
            <h4 className="heading-s" id="invalidate-preview-heading" tabIndex={-1} ref={previewRef}>
              {preview.matching.toLocaleString('en-GB')} signature{preview.matching === 1 ? '' : 's'} on {preview.petitions} petition
              {preview.petitions === 1 ? '' : 's'} match
            </h4>
            <p className="hint">As of {formatDateTime(preview.asOf)}; signatures made until the request are included.</p>
            {preview.byPetition.length ? (
              <table className="table">
                <caption className="visually-hidden">What the invalidation does to each petition</caption>
                <thead>
                  <tr>
                    <th scope="col">Petition</th>
                    <th scope="col">Signatures now</th>
                    <th scope="col">Invalidated</th>
                    <th scope="col">Afterwards</th>
                    <th scope="col">Status afterwards</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.byPetition.map((row) => (
                    <tr key={row.petitionId}>
                      <th scope="row">
                        #{row.petitionId} {row.title}
                      </th>
                      <td>{row.signatures}</td>
                      <td>{row.matching}</td>
                      <td>{row.signaturesAfter}</td>
                      <td>
                        {statusLabel(row.statusAfter)}
                        {row.statusAfter !== row.status ? <span className="hint"> (now {statusLabel(row.status)})</span> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {preview.sample.length ? (
              <>
                <p>Newest of them:</p>
                <ul className="integrity-sample">
                  {preview.sample.map((s) => (
                    <li key={`${s.petitionId}:${s.userId}`}>
                      {s.displayName} (@{s.username}, user {s.userId}) on #{s.petitionId}, signed {formatDateTime(s.signedAt)}
                      {s.accountCreatedAt ? `, account created ${formatDateTime(s.accountCreatedAt)}` : ', account age unknown'}
                      {s.accountVerified ? ', verified' : ''}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
        ) : null}
        <Field id={IDS.reason} label="Reason (recorded in the audit log)">
          {(a11y) => <textarea id={IDS.reason} className="textarea" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} {...a11y} />}
        </Field>
        <div className="staff-actions">
          <button type="submit" className="button button--warning" disabled={busy || (!preview && !writes.queues)} aria-busy={busy || undefined}>
            {preview
              ? `Invalidate ${preview.matching.toLocaleString('en-GB')} signature${preview.matching === 1 ? '' : 's'}`
              : writes.queues
                ? 'Queue the invalidation'
                : 'Preview first to invalidate'}
          </button>
        </div>
      </form>
    </section>
  );
}
