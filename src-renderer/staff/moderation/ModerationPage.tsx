/**
 * The web moderation queue (/moderation, docs/moderation.md#the-queue): reported and hidden
 * petitions, most reports first, or the rejected ones; each a case with its decisions; several can
 * be kept, hidden or rejected in one step with a result for each; and, for the administrator, the
 * rejection reasons. Lazily loaded for moderators only; the server refuses every call to others.
 */
import { useState } from 'react';
import { useSearchParams } from '../../navigation.ts';
import type { ModerationBulkItemResult, ModerationBulkRequest, RejectionReason } from '../../../src-shared/domain/moderation-schemas.ts';
import type { User } from '../../../src-shared/domain/schemas.ts';
import { MODERATION_ERRORS, availableDecisions, hideReasonError } from '../../../src-shared/rules/moderation.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import { canManageRejectionReasons, canModerate } from '../../../src-shared/rules/permissions.ts';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useAsync } from '../../hooks/useAsync.ts';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { api } from '../../services/api.ts';
import { useSession } from '../../stores/index.ts';
import { failure, type Outcome } from '../lib/outcome.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { ModerationCaseCard } from './ModerationCaseCard.tsx';
import { MODERATION_SCREEN_TEXTS as T } from './moderationTexts.ts';
import { RejectionReasonsEditor } from './RejectionReasonsEditor.tsx';
import '../staff.css';

type BulkDecision = 'keep' | 'hide' | 'reject';

function BulkBar({
  selected,
  reasons,
  onDone,
}: {
  selected: { petitionId: number; version: number }[];
  reasons: readonly RejectionReason[];
  onDone: (results: ModerationBulkItemResult[]) => void;
}) {
  const [hideReason, setHideReason] = useState('');
  const [rejectCode, setRejectCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const send = async (decision: BulkDecision) => {
    if (decision === 'hide' && hideReasonError(hideReason)) return setOutcome({ tone: 'error', text: hideReasonError(hideReason) ?? '' });
    if (decision === 'reject' && !rejectCode) return setOutcome({ tone: 'error', text: MODERATION_ERRORS.rejectionReasonRequired });
    const action: ModerationBulkRequest['items'][number]['action'] =
      decision === 'hide' ? { decision, reason: hideReason.trim() } : decision === 'reject' ? { decision, reasonCode: rejectCode } : { decision };
    setBusy(true);
    setOutcome(null);
    try {
      const { results } = await api.moderatePetitions({ items: selected.map((item) => ({ petitionId: item.petitionId, action, expectedVersion: item.version })) });
      const applied = results.filter((r) => r.result === 'applied' || r.result === 'unchanged').length;
      setOutcome({ tone: applied === results.length ? 'success' : 'error', text: T.bulkDone(applied, results.length - applied) });
      onDone(results);
    } catch (error) {
      setOutcome(failure(error, T.actionFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="staff-section moderation-bulk" aria-labelledby="moderation-bulk-heading">
      <h2 className="heading-s" id="moderation-bulk-heading">
        {T.bulkHeading} ({T.selected(selected.length)})
      </h2>
      <OutcomeNotice outcome={outcome} onDismiss={() => setOutcome(null)} />
      <div className="moderation-case__actions">
        <button type="button" className="button button--secondary" disabled={busy || selected.length === 0} onClick={() => void send('keep')}>
          {T.bulkKeep}
        </button>
        <div className="form-group moderation-case__inline">
          <label className="label" htmlFor="bulk-hide-reason">
            {T.hideReasonLabel}
          </label>
          <input id="bulk-hide-reason" className="input" value={hideReason} onChange={(e) => setHideReason(e.target.value)} />
          <button type="button" className="button button--warning" disabled={busy || selected.length === 0} onClick={() => void send('hide')}>
            {T.bulkHide}
          </button>
        </div>
        <div className="form-group moderation-case__inline">
          <label className="label" htmlFor="bulk-reject-reason">
            {T.rejectReasonLabel}
          </label>
          <select id="bulk-reject-reason" className="select" value={rejectCode} onChange={(e) => setRejectCode(e.target.value)}>
            <option value="">{T.chooseReason}</option>
            {reasons.map((reason) => (
              <option key={reason.code} value={reason.code}>
                {reason.title}
              </option>
            ))}
          </select>
          <button type="button" className="button button--warning" disabled={busy || selected.length === 0} onClick={() => void send('reject')}>
            {T.bulkReject}
          </button>
        </div>
      </div>
    </section>
  );
}

function Queue({ user }: { user: User }) {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'rejected' ? 'rejected' : 'review';
  const queue = useAsync(() => api.listModerationQueue({ view, pageSize: 50 }), [view]);
  const reasons = useAsync(() => api.listRejectionReasons(), []);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [results, setResults] = useState<Map<number, ModerationBulkItemResult>>(new Map());
  /** A decision taken on a card: said here too, since the card may leave the queue with it. */
  const [decided, setDecided] = useState<Outcome | null>(null);
  const items = queue.data?.items ?? [];
  const counts = queue.data?.counts;

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <nav className="moderation-tabs" aria-label="Moderation views">
        <ul>
          {(['review', 'rejected'] as const).map((tab) => (
            <li key={tab}>
              <a
                href={`?view=${tab}`}
                aria-current={view === tab ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  setSelected(new Set());
                  setParams(tab === 'review' ? {} : { view: tab });
                }}
              >
                {tab === 'review' ? T.reviewTab : T.rejectedTab}
                {counts ? ` (${tab === 'review' ? counts.reported + counts.hidden : counts.rejected})` : ''}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <OutcomeNotice outcome={decided} onDismiss={() => setDecided(null)} />
      {queue.status === 'error' ? (
        <Notice tone="error" live="alert">
          <p>{T.loadFailed}</p>
        </Notice>
      ) : null}
      {!queue.data && queue.status === 'loading' ? <Loading /> : null}
      {queue.data && items.length === 0 ? <p>{view === 'review' ? MODERATION_TEXTS.queueEmpty : MODERATION_TEXTS.rejectedEmpty}</p> : null}
      {items.length > 0 ? (
        <BulkBar
          selected={items.filter((item) => selected.has(item.petition.id)).map((item) => ({ petitionId: item.petition.id, version: item.petition.version }))}
          reasons={reasons.data ?? []}
          onDone={(done) => {
            setResults(new Map(done.map((r) => [r.petitionId, r])));
            setSelected(new Set());
            queue.reload();
          }}
        />
      ) : null}
      <ol className="moderation-queue">
        {items.map((item) => {
          const result = results.get(item.petition.id);
          const offered = availableDecisions({ state: item.petition.moderation?.state ?? null, openReports: item.openReports });
          return (
            <li key={item.petition.id}>
              {result && result.result !== 'applied' && result.result !== 'unchanged' ? (
                <Notice tone="error">
                  <p>
                    #{item.petition.id}: {result.detail ?? result.result}
                  </p>
                </Notice>
              ) : null}
              <ModerationCaseCard
                item={item}
                reasons={reasons.data ?? []}
                user={user}
                onChanged={(done) => {
                  if (done) setDecided({ tone: 'success', text: done });
                  queue.reload();
                }}
                linkTitle
                selection={offered.length > 0 ? { selected: selected.has(item.petition.id), toggle: () => toggle(item.petition.id) } : undefined}
              />
            </li>
          );
        })}
      </ol>
      {canManageRejectionReasons(user) ? <RejectionReasonsEditor reasons={reasons} /> : null}
    </>
  );
}

export default function ModerationPage() {
  useDocumentTitle(MODERATION_TEXTS.queueTitle);
  const user = useSession((s) => s.user);
  const loading = useSession((s) => s.status === 'loading');
  if (loading) return <Loading text="Checking your account..." />;
  // docs/moderation.md#who-can-do-what; the server refuses everyone else anyway. (Written here, not
  // with the app's AccessDenied page, so this chunk imports nothing of the first download's pages.)
  if (!user || !canModerate(user)) {
    return (
      <div className="error-screen">
        <h1 className="heading-xl">Access Denied</h1>
        <p className="body-l">{MODERATION_ERRORS.moderationForbidden}</p>
      </div>
    );
  }
  return (
    <div className="staff-page moderation-page">
      <h1 className="heading-xl">{MODERATION_TEXTS.queueTitle}</h1>
      <Queue user={user} />
    </div>
  );
}
