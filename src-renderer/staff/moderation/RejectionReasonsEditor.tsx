/**
 * The administrator's rejection reasons (docs/moderation.md#rejection-reasons): edit a reason's
 * title, public text and hidden flag, add one with its code, delete one no petition uses. Each
 * write is a staff action (rejectionReason.*).
 */
import { useId, useState } from 'react';
import type { RejectionReason } from '../../../src-shared/domain/moderation-schemas.ts';
import { rejectionCodeError, rejectionReasonErrors } from '../../../src-shared/rules/moderation.ts';
import { Field } from '../../components/Field.tsx';
import type { useAsync } from '../../hooks/useAsync.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success, type Outcome } from '../lib/outcome.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { MODERATION_SCREEN_TEXTS as T } from './moderationTexts.ts';

type ReasonsState = ReturnType<typeof useAsync<RejectionReason[]>>;

function ReasonForm({ reason, onSaved }: { reason: RejectionReason | null; onSaved: () => void }) {
  const id = useId();
  const writes = useStaffWrites();
  const [code, setCode] = useState(reason?.code ?? '');
  const [title, setTitle] = useState(reason?.title ?? '');
  const [publicText, setPublicText] = useState(reason?.publicText ?? '');
  const [hidden, setHidden] = useState(reason?.hidden ?? false);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const errors = checked ? { ...rejectionReasonErrors({ title, publicText }), ...(reason ? {} : { code: rejectionCodeError(code) ?? undefined }) } : {};

  const save = async () => {
    setChecked(true);
    const found = { ...rejectionReasonErrors({ title, publicText }), ...(reason ? {} : rejectionCodeError(code) ? { code: 'x' } : {}) };
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setOutcome(null);
    try {
      const result = await writes.perform({ kind: 'rejectionReason.save', code: reason?.code ?? code, body: { title, publicText, hidden } });
      setOutcome(isQueued(result) ? queuedOutcome(result) : success(T.reasonSaved));
      onSaved();
    } catch (error) {
      setOutcome(failure(error, T.actionFailed));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!reason) return;
    setBusy(true);
    setOutcome(null);
    try {
      const result = await writes.perform({ kind: 'rejectionReason.delete', code: reason.code });
      setOutcome(isQueued(result) ? queuedOutcome(result) : success(T.reasonDeleted));
      onSaved();
    } catch (error) {
      setOutcome(failure(error, T.actionFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="staff-subform rejection-reason">
      <OutcomeNotice outcome={outcome} onDismiss={() => setOutcome(null)} />
      {reason ? (
        <p>
          {T.reasonCode}: <code>{reason.code}</code> · {T.reasonInUse(reason.inUse)}
        </p>
      ) : (
        <Field id={`${id}-code`} label={T.reasonCode} error={errors.code ?? null}>
          {(a11y) => <input id={`${id}-code`} className="input" value={code} onChange={(e) => setCode(e.target.value)} {...a11y} />}
        </Field>
      )}
      <Field id={`${id}-title`} label={T.reasonTitle} error={errors.title ?? null}>
        {(a11y) => <input id={`${id}-title`} className="input" value={title} onChange={(e) => setTitle(e.target.value)} {...a11y} />}
      </Field>
      <Field id={`${id}-text`} label={T.reasonText} error={errors.publicText ?? null}>
        {(a11y) => <textarea id={`${id}-text`} className="textarea" rows={2} value={publicText} onChange={(e) => setPublicText(e.target.value)} {...a11y} />}
      </Field>
      <div className="checkbox-line">
        <input type="checkbox" id={`${id}-hidden`} checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
        <label htmlFor={`${id}-hidden`}>{T.reasonHidden}</label>
      </div>
      <div className="staff-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void save()}>
          {reason ? T.reasonSave : T.reasonAdd}
          {reason ? <span className="visually-hidden"> {reason.title}</span> : null}
        </button>
        {reason && reason.inUse === 0 ? (
          <button type="button" className="button button--warning" disabled={busy} onClick={() => void remove()}>
            {T.reasonDelete}
            <span className="visually-hidden"> {reason.title}</span>
          </button>
        ) : null}
      </div>
    </div>
  );
}

export function RejectionReasonsEditor({ reasons }: { reasons: ReasonsState }) {
  const [added, setAdded] = useState(0);
  return (
    <section className="staff-section" aria-labelledby="rejection-reasons-heading">
      <h2 className="heading-m" id="rejection-reasons-heading">
        {T.reasonsHeading}
      </h2>
      {(reasons.data ?? []).map((reason) => (
        <details key={`${reason.code}:${reason.title}:${reason.publicText}:${reason.hidden}`}>
          <summary>
            {reason.title}
            {reason.hidden ? ' (hidden)' : ''}
          </summary>
          <ReasonForm reason={reason} onSaved={reasons.reload} />
        </details>
      ))}
      <details>
        <summary>{T.reasonAdd}</summary>
        <ReasonForm
          key={added}
          reason={null}
          onSaved={() => {
            setAdded((n) => n + 1);
            reasons.reload();
          }}
        />
      </details>
    </section>
  );
}
