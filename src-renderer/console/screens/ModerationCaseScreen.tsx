/**
 * One moderation case (docs/moderation.md#in-the-staff-console): the petition's state, its reports
 * with their reasons and texts, the creator, their other petitions and past moderation, and the
 * decisions the shared rule allows in its state. k, h, x and r put focus on keep, hide, reject and
 * restore (b on banning the creator, for the administrator); Enter decides. A decision is queued in
 * the outbox, based on the version shown, and the next case opens; a conflict shows its card here.
 */
import { useEffect, useRef } from 'react';
import type { ModerationDecision } from '../../../src-shared/domain/moderation-constants.ts';
import { REPORT_REASON_LABELS } from '../../../src-shared/domain/moderation-constants.ts';
import type { ModerationCase } from '../../../src-shared/domain/moderation-schemas.ts';
import { MODERATION_ERRORS, hideReasonError, type DecisionRequest } from '../../../src-shared/rules/moderation.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import { banReasonError } from '../../../src-shared/rules/validation.ts';
import type { StaffActionInput } from '../../../src-shared/console/staff-actions.ts';
import { signaturesText } from '../../components/format.ts';
import { HISTORY_ACTION_LABELS, MODERATION_SCREEN_TEXTS as T } from '../../staff/moderation/moderationTexts.ts';
import { errorMessage } from '../consoleApi.ts';
import { dataAge } from '../format.ts';
import { canBanCreator, caseStateLabel, decisionAction, decisionsFor, moderationItems } from '../moderation.ts';
import { moderationStateText } from '../outboxView.ts';
import { chipFor, latestEntryFor } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import type { CaseControl } from '../state/navStore.ts';
import { useOnline, useUser } from '../state/selectors.ts';
import { useShortcutKeys } from '../shortcutKeys.ts';
import { Chip } from '../components/Chip.tsx';
import { ConflictCard } from './ConflictCard.tsx';
import { ReasonForm } from './ModerationReasonForm.tsx';

/** The key that puts focus on each control (also in the shortcut sheet). */
export const CASE_KEYS: Readonly<Record<string, CaseControl>> = { k: 'keep', h: 'hide', x: 'reject', r: 'restore', b: 'ban' };

export function ModerationCaseScreen({ id, control }: { id: number; control: CaseControl | null }) {
  const stores = useStores();
  const { moderation, nav, outbox, toasts } = stores;
  const user = useUser();
  const online = useOnline();
  const own = moderation((s) => s.cases[id]);
  // Subscribing to the queues too: a queue item read later may carry a newer version than the case.
  moderation((s) => s.queues);
  const item = moderation.getState().caseOf(id);
  const reasons = moderation((s) => s.reasons.data) ?? [];
  const entries = outbox((s) => s.entries);
  const entry = latestEntryFor(entries, id);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const controls = useRef<Partial<Record<CaseControl, HTMLElement | null>>>({});
  const decisions: ModerationDecision[] = item ? decisionsFor(item) : [];
  const mayBan = item ? canBanCreator(user, item) : false;
  const available = (c: CaseControl) => (c === 'ban' ? mayBan : decisions.includes(c));

  useEffect(() => {
    void moderation.getState().loadCase(id);
    if (moderation.getState().reasons.status === 'idle') void moderation.getState().loadReasons();
  }, [moderation, id]);

  // Focus follows the control asked for (a key, the palette), else the heading.
  useEffect(() => {
    const target = control ? controls.current[control] : null;
    (target ?? headingRef.current)?.focus();
  }, [control, item !== null]);

  // k/h/x/r/b move focus to their control, consumed at keydown (shortcutKeys.ts); Enter decides.
  const chooseControl = (wanted: CaseControl) => () => {
    if (!available(wanted)) {
      toasts.getState().push('info', `${wanted === 'ban' ? 'Banning the creator' : `“${wanted}”`} is not possible for this petition now.`);
      return;
    }
    // Asked again for the same control: focus it again.
    if (control === wanted) controls.current[wanted]?.focus();
    else nav.getState().go({ name: 'moderationCase', id, control: wanted });
  };
  useShortcutKeys(Object.fromEntries(Object.entries(CASE_KEYS).map(([key, wanted]) => [key, chooseControl(wanted)])));

  if (!item) {
    return (
      <section className="console-screen" aria-labelledby="case-title">
        <h1 className="heading-l" id="case-title" ref={headingRef} tabIndex={-1}>
          Petition #{id}
        </h1>
        <p role="status">{own?.status === 'error' ? `This case could not be read: ${own.error}` : 'Loading the case…'}</p>
      </section>
    );
  }

  const { petition } = item;

  /** Queues the action and opens the next case still waiting in the queue (or the queue), unless the member left this case meanwhile. */
  const queueAndMoveOn = async (action: StaffActionInput): Promise<boolean> => {
    try {
      const [queued] = await outbox.getState().enqueue([action]);
      toasts.getState().push('info', `Queued: ${queued?.summary ?? 'decision'}${online ? '' : ' (offline: sent when back online)'}`);
    } catch (error) {
      toasts.getState().push('error', `Could not queue the decision for petition #${id}: ${errorMessage(error)}`);
      return false;
    }
    // Queuing can take a moment (a busy host), and the member may have gone elsewhere meanwhile, Escape
    // or another case: they stay where they went.
    const screen = nav.getState().screen;
    if (screen.name !== 'moderationCase' || screen.id !== id) return true;
    const state = moderation.getState();
    const waiting = moderationItems(state.queues[state.view].data?.items ?? [], state.search).filter((c) => {
      const live = latestEntryFor(outbox.getState().entries, c.petition.id);
      return c.petition.id !== id && (!live || live.state === 'applied');
    });
    const all = state.queues[state.view].data?.items ?? [];
    const after = all.findIndex((c) => c.petition.id === id);
    const next = waiting.find((c) => all.indexOf(c) > after) ?? waiting[0];
    if (next) {
      state.select(next.petition.id);
      nav.getState().go({ name: 'moderationCase', id: next.petition.id, control: null });
    } else {
      nav.getState().go({ name: 'moderation' });
    }
    return true;
  };
  const decide = (request: DecisionRequest) => queueAndMoveOn(decisionAction(petition, request));

  const age = dataAge(own?.fetchedAt ?? null, own?.fromCache ?? false);
  const chip = chipFor(entry, online);
  const ref = (c: CaseControl) => (element: HTMLElement | null) => {
    controls.current[c] = element;
  };
  return (
    <article className="console-screen console-petition" aria-labelledby="case-title">
      <div className="console-screen__head">
        <p className="console-breadcrumb">
          <button type="button" className="console-link-button" onClick={() => nav.getState().back()}>
            ← Moderation <kbd>Esc</kbd>
          </button>
        </p>
        <h1 className="heading-l" id="case-title" ref={headingRef} tabIndex={-1}>
          <span className="console-row__number">#{petition.id}</span> {petition.title}
        </h1>
        <p className="console-age" data-testid="data-age">
          {caseStateLabel(item)} · {item.openReports} open {item.openReports === 1 ? 'report' : 'reports'} ·{' '}
          {signaturesText(petition.signatures)} · {statusLabel(petition.status)} · version {petition.version}
          {age ? ` · ${age}` : ''}
        </p>
        <p className="console-hint" data-testid="case-state">
          {moderationStateText(petition)}
          {item.rejection ? ` · ${item.rejection.title}${item.rejection.hidden ? ' (hidden reason: no public page)' : ''}` : ''}
        </p>
        {chip ? (
          <p className="console-petition__chip">
            <Chip chip={chip} /> {entry?.summary}
            {entry?.lastError ? ` — ${entry.lastError}` : ''}
          </p>
        ) : null}
        {entry?.state === 'conflict' ? (
          <section aria-labelledby="case-conflict">
            <h2 className="heading-s" id="case-conflict">
              Your decision needs attention
            </h2>
            <ConflictCard entry={entry} headingLevel={3} />
          </section>
        ) : null}
      </div>
      <div className="console-petition__grid">
        <CaseFacts item={item} />
        <div className="console-petition__work">
          <h2 className="heading-s">Decide</h2>
          {decisions.length === 0 && !mayBan ? <p>No decision can change this petition now.</p> : null}
          <div className="console-tabs" role="group" aria-label="Decisions without a reason">
            {decisions.includes('keep') ? (
              <button type="button" ref={ref('keep')} className="button button--secondary console-small" aria-keyshortcuts="K" onClick={() => void decide({ decision: 'keep' })}>
                Keep: settle the reports <kbd>k</kbd>
              </button>
            ) : null}
            {decisions.includes('restore') ? (
              <button type="button" ref={ref('restore')} className="button console-small" aria-keyshortcuts="R" onClick={() => void decide({ decision: 'restore' })}>
                Restore <kbd>r</kbd>
              </button>
            ) : null}
          </div>
          {decisions.includes('hide') ? (
            <ReasonForm
              fieldRef={ref('hide')}
              id="case-hide"
              label={T.hideReasonLabel}
              keyHint="h"
              submitLabel="Hide"
              check={hideReasonError}
              onSubmit={(reason) => decide({ decision: 'hide', reason })}
            />
          ) : null}
          {decisions.includes('reject') ? (
            <ReasonForm
              fieldRef={ref('reject')}
              id="case-reject"
              label={T.rejectReasonLabel}
              keyHint="x"
              submitLabel="Reject"
              reasons={reasons}
              check={(code) => (code ? null : MODERATION_ERRORS.rejectionReasonRequired)}
              onSubmit={(reasonCode) => decide({ decision: 'reject', reasonCode })}
            />
          ) : null}
          {mayBan && item.creator.id ? (
            <ReasonForm
              fieldRef={ref('ban')}
              id="case-ban"
              label={`${T.banReasonLabel}: ${item.creator.name}`}
              keyHint="b"
              submitLabel={T.banCreator}
              check={banReasonError}
              onSubmit={async (reason) => {
                try {
                  const [queued] = await outbox.getState().enqueue([{ kind: 'ban.add', userId: item.creator.id!, body: { reason: reason.trim() } }]);
                  toasts.getState().push('info', `Queued: ${queued?.summary ?? 'ban'}`);
                  return true;
                } catch (error) {
                  toasts.getState().push('error', `Could not queue the ban: ${errorMessage(error)}`);
                  return false;
                }
              }}
            />
          ) : null}
        </div>
      </div>
    </article>
  );
}

/** What a moderator reads before deciding: the petition, its reports, its creator and their history. */
function CaseFacts({ item }: { item: ModerationCase }) {
  const { petition } = item;
  return (
    <div className="console-petition__facts">
      <h2 className="heading-s">Petition</h2>
      <p className="console-petition__description">{petition.description}</p>
      <h2 className="heading-s">
        {T.reports} ({item.totalReports})
      </h2>
      {item.reports.length === 0 ? (
        <p>{T.noReports}</p>
      ) : (
        <ul className="console-mod-list">
          {item.reports.map((report) => (
            <li key={report.id}>
              <strong>{REPORT_REASON_LABELS[report.reason]}</strong>
              {report.duplicateOf ? ` of #${report.duplicateOf.id}${report.duplicateOf.title ? ` ${report.duplicateOf.title}` : ''}` : ''}
              {report.open ? '' : ' (settled)'}
              {report.details ? <blockquote className="console-quote">{report.details}</blockquote> : null}
              <span className="console-hint">
                {' '}
                {report.reporter.name}, {formatDateTime(report.reportedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2 className="heading-s">{T.creator}</h2>
      <p>
        {item.creator.name}
        {item.creator.id ? ` (user ${item.creator.id})` : ''}
        {item.creator.banned ? ` · ${T.creatorBanned}${item.creator.banReason ? `: ${item.creator.banReason}` : ''}` : ''}
      </p>
      <h2 className="heading-s">
        {T.otherPetitions} ({item.creatorPetitions.length})
      </h2>
      {item.creatorPetitions.length === 0 ? (
        <p>{T.noOtherPetitions}</p>
      ) : (
        <ul className="console-mod-list">
          {item.creatorPetitions.map((other) => (
            <li key={other.id}>
              #{other.id} {other.title} · {statusLabel(other.status)}
              {other.moderationState ? ` · ${other.moderationState}` : ''} · {signaturesText(other.signatures)}
            </li>
          ))}
        </ul>
      )}
      <h2 className="heading-s">
        {T.history} ({item.history.length})
      </h2>
      {item.history.length === 0 ? (
        <p>{T.noHistory}</p>
      ) : (
        <ul className="console-mod-list">
          {item.history.map((event) => (
            <li key={event.id}>
              {formatDateTime(event.at)}: {HISTORY_ACTION_LABELS[event.action]}
              {event.reasonCode ? ` (${event.reasonCode})` : ''} · #{event.petitionId} {event.petitionTitle}
              {event.actor ? ` · ${event.actor.name}, ${event.actor.role}` : ''}
              {event.note ? ` · “${event.note}”` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
