/**
 * One moderation case (docs/moderation.md#the-queue): the petition's state, its reports with their
 * reasons and texts, the creator, their other petitions and past moderation, and the decisions the
 * shared rule allows in its state. Each decision is a staff action (moderation.*), so the web
 * performs it at once and the console would queue it; a decision another moderator overtook comes
 * back as a conflict with a reload.
 */
import { useId, useState } from 'react';
import { Link } from '../../components/Link.tsx';
import { REPORT_REASON_LABELS } from '../../../src-shared/domain/moderation-constants.ts';
import type { ModerationCase, RejectionReason } from '../../../src-shared/domain/moderation-schemas.ts';
import type { User } from '../../../src-shared/domain/schemas.ts';
import { MODERATION_ERRORS, availableDecisions, hideReasonError } from '../../../src-shared/rules/moderation.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import { canManageBans } from '../../../src-shared/rules/permissions.ts';
import { banReasonError } from '../../../src-shared/rules/validation.ts';
import { formatDateTime, formatLongDate } from '../../../src-shared/rules/dates.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { petitionPath } from '../../routes.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success, type Outcome } from '../lib/outcome.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { HISTORY_ACTION_LABELS, MODERATION_SCREEN_TEXTS as T } from './moderationTexts.ts';

export interface ModerationCaseCardProps {
  item: ModerationCase;
  reasons: readonly RejectionReason[];
  user: User;
  /** Something changed (a decision, a ban), said in words: load the case or the queue again. */
  onChanged: (done?: string) => void;
  /** In the queue: the bulk selection. */
  selection?: { selected: boolean; toggle: () => void };
  /** The queue links each card to its petition; the petition page does not. */
  linkTitle?: boolean;
  headingLevel?: 2 | 3;
}

export function ModerationCaseCard({ item, reasons, user, onChanged, selection, linkTitle = false, headingLevel = 2 }: ModerationCaseCardProps) {
  const id = useId();
  const writes = useStaffWrites();
  const { petition } = item;
  const state = petition.moderation?.state ?? null;
  const decisions = availableDecisions({ state, openReports: item.openReports, rejectionCode: petition.moderation?.reasonCode ?? null });
  const [hideReason, setHideReason] = useState('');
  const [rejectCode, setRejectCode] = useState('');
  const [banReason, setBanReason] = useState('');
  const [fieldError, setFieldError] = useState<{ field: 'hide' | 'reject' | 'ban'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const Heading = `h${headingLevel}` as const;
  const Sub = `h${headingLevel + 1}` as 'h3' | 'h4';

  async function run(perform: () => Promise<unknown>, done: string) {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await perform();
      const said = isQueued(result) ? queuedOutcome(result) : success(done);
      setOutcome(said);
      onChanged(`${petition.title}: ${said.text}`);
    } catch (error) {
      setOutcome(failure(error, T.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  const base = { petitionId: petition.id, baseVersion: petition.version };
  const keep = () => void run(() => writes.perform({ kind: 'moderation.keep', ...base }), T.applied.keep);
  const restore = () => void run(() => writes.perform({ kind: 'moderation.restore', ...base }), T.applied.restore);
  const hide = () => {
    const error = hideReasonError(hideReason);
    setFieldError(error ? { field: 'hide', text: error } : null);
    if (!error) void run(() => writes.perform({ kind: 'moderation.hide', ...base, reason: hideReason.trim() }), T.applied.hide);
  };
  const reject = () => {
    const error = rejectCode ? null : MODERATION_ERRORS.rejectionReasonRequired;
    setFieldError(error ? { field: 'reject', text: error } : null);
    if (!error) void run(() => writes.perform({ kind: 'moderation.reject', ...base, reasonCode: rejectCode }), T.applied.reject);
  };
  const ban = () => {
    const error = banReasonError(banReason);
    setFieldError(error ? { field: 'ban', text: error } : null);
    if (!error && item.creator.id) void run(() => writes.perform({ kind: 'ban.add', userId: item.creator.id!, body: { reason: banReason.trim() } }), T.banned);
  };
  const errorFor = (field: 'hide' | 'reject' | 'ban') => (fieldError?.field === field ? fieldError.text : null);
  const errorId = (field: string) => `${id}-${field}-error`;

  return (
    <article className="moderation-case" aria-labelledby={`${id}-title`}>
      <div className="moderation-case__head">
        {selection ? (
          <div className="moderation-case__select">
            <input type="checkbox" id={`${id}-select`} checked={selection.selected} onChange={selection.toggle} />
            <label htmlFor={`${id}-select`}>
              {T.select}
              <span className="visually-hidden"> #{petition.id}</span>
            </label>
          </div>
        ) : null}
        <Heading className="heading-s moderation-case__title" id={`${id}-title`}>
          {linkTitle ? <Link to={petitionPath(petition.id)}>{petition.title}</Link> : petition.title}{' '}
          <span className="moderation-case__id">#{petition.id}</span>
        </Heading>
        <p className="moderation-case__state">
          {statusLabel(petition.status)} ·{' '}
          {state === 'hidden' ? <strong className="badge badge--yellow">{MODERATION_TEXTS.hiddenStaffNotice}</strong> : null}
          {state === 'rejected' ? <strong className="badge badge--red">{MODERATION_TEXTS.rejectedHeading}</strong> : null}{' '}
          {T.openReports}: <strong>{item.openReports}</strong> · {petition.signatures} signatures
        </p>
        {petition.moderation?.note ? <p>Hidden because: {petition.moderation.note}</p> : null}
        {item.rejection ? (
          <p>
            Rejected: <strong>{item.rejection.title}</strong>
            {item.rejection.hidden ? ' (hidden reason)' : ''}
          </p>
        ) : null}
      </div>

      <Sub className="heading-xs">
        {T.reports} ({item.totalReports})
      </Sub>
      {item.reports.length === 0 ? (
        <p>{T.noReports}</p>
      ) : (
        <ul className="moderation-case__reports">
          {item.reports.map((report) => (
            <li key={report.id} className={report.open ? undefined : 'moderation-case__settled'}>
              <strong>{REPORT_REASON_LABELS[report.reason]}</strong>
              {report.duplicateOf ? (
                <>
                  {' '}
                  of <Link to={petitionPath(report.duplicateOf.id)}>{report.duplicateOf.title ?? `#${report.duplicateOf.id}`}</Link>
                </>
              ) : null}
              {report.details ? <span className="pre-line">: “{report.details}”</span> : null}
              <span className="moderation-case__meta">
                {' '}
                by {report.reporter.name}, {formatDateTime(report.reportedAt)}
                {report.open ? '' : ' (settled)'}
              </span>
            </li>
          ))}
        </ul>
      )}

      <Sub className="heading-xs">{T.creator}</Sub>
      <p>
        {item.creator.name}
        {item.creator.id ? ` (${item.creator.id})` : ''}
        {item.creator.banned ? ` · ${T.creatorBanned}: ${item.creator.banReason ?? ''}` : ''}
      </p>
      <details className="moderation-case__more">
        <summary>
          {T.otherPetitions} ({item.creatorPetitions.length}) · {T.history} ({item.history.length})
        </summary>
        {item.creatorPetitions.length === 0 ? (
          <p>{T.noOtherPetitions}</p>
        ) : (
          <ul>
            {item.creatorPetitions.map((other) => (
              <li key={other.id}>
                <Link to={petitionPath(other.id)}>{other.title}</Link> · {statusLabel(other.status)}
                {other.moderationState ? ` · ${other.moderationState}` : ''} · {formatLongDate(other.created)}
              </li>
            ))}
          </ul>
        )}
        {item.history.length === 0 ? (
          <p>{T.noHistory}</p>
        ) : (
          <ul>
            {item.history.map((entry) => (
              <li key={entry.id}>
                {formatDateTime(entry.at)}: {HISTORY_ACTION_LABELS[entry.action]}
                {entry.reasonCode ? ` (${entry.reasonCode})` : ''} · {entry.petitionTitle}
                {entry.actor ? ` · ${entry.actor.name}, ${entry.actor.role}` : ''}
                {entry.note ? ` · “${entry.note}”` : ''}
              </li>
            ))}
          </ul>
        )}
      </details>

      <OutcomeNotice outcome={outcome} onDismiss={() => setOutcome(null)} onReload={() => onChanged()} />

      <div className="moderation-case__actions">
        {decisions.includes('keep') ? (
          <button type="button" className="button button--secondary" disabled={busy} onClick={keep}>
            Keep
          </button>
        ) : null}
        {decisions.includes('restore') ? (
          <button type="button" className="button" disabled={busy} onClick={restore}>
            Restore
          </button>
        ) : null}
        {decisions.includes('hide') ? (
          <div className={`form-group moderation-case__inline${errorFor('hide') ? ' form-group--error' : ''}`}>
            <label className="label" htmlFor={`${id}-hide`}>
              {T.hideReasonLabel}
            </label>
            {errorFor('hide') ? (
              <p className="error-message" id={errorId('hide')}>
                <span className="visually-hidden">Error:</span> {errorFor('hide')}
              </p>
            ) : null}
            <input
              id={`${id}-hide`}
              className="input"
              value={hideReason}
              onChange={(e) => setHideReason(e.target.value)}
              aria-invalid={errorFor('hide') ? true : undefined}
              aria-describedby={errorFor('hide') ? errorId('hide') : undefined}
            />
            <button type="button" className="button button--warning" disabled={busy} onClick={hide}>
              Hide
            </button>
          </div>
        ) : null}
        {decisions.includes('reject') ? (
          <div className={`form-group moderation-case__inline${errorFor('reject') ? ' form-group--error' : ''}`}>
            <label className="label" htmlFor={`${id}-reject`}>
              {T.rejectReasonLabel}
            </label>
            {errorFor('reject') ? (
              <p className="error-message" id={errorId('reject')}>
                <span className="visually-hidden">Error:</span> {errorFor('reject')}
              </p>
            ) : null}
            <select
              id={`${id}-reject`}
              className="select"
              value={rejectCode}
              onChange={(e) => setRejectCode(e.target.value)}
              aria-invalid={errorFor('reject') ? true : undefined}
              aria-describedby={errorFor('reject') ? errorId('reject') : undefined}
            >
              <option value="">{T.chooseReason}</option>
              {reasons.map((reason) => (
                <option key={reason.code} value={reason.code}>
                  {reason.title}
                  {reason.hidden ? ' (hidden)' : ''}
                </option>
              ))}
            </select>
            <button type="button" className="button button--warning" disabled={busy} onClick={reject}>
              Reject
            </button>
          </div>
        ) : null}
        {canManageBans(user) && item.creator.id && !item.creator.banned && item.creator.id !== user.id ? (
          <div className={`form-group moderation-case__inline${errorFor('ban') ? ' form-group--error' : ''}`}>
            <label className="label" htmlFor={`${id}-ban`}>
              {T.banReasonLabel}
            </label>
            {errorFor('ban') ? (
              <p className="error-message" id={errorId('ban')}>
                <span className="visually-hidden">Error:</span> {errorFor('ban')}
              </p>
            ) : null}
            <input
              id={`${id}-ban`}
              className="input"
              value={banReason}
              onChange={(e) => setBanReason(e.target.value)}
              aria-invalid={errorFor('ban') ? true : undefined}
              aria-describedby={errorFor('ban') ? errorId('ban') : undefined}
            />
            <button type="button" className="button button--warning" disabled={busy} onClick={ban}>
              {T.banCreator}
            </button>
          </div>
        ) : null}
      </div>
    </article>
  );
}
