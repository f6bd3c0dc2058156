/**
 * The console's moderation queue as plain functions (docs/moderation.md#in-the-staff-console): who
 * sees it, how a case reads in a row, the decisions a case offers and the staff action each one
 * queues, and a bulk decision's preview and per-petition results. What a decision does in a state
 * is the shared rule (`decisionOutcome`, `availableDecisions`); the console never decides it again.
 */
import type { OutboxEntry } from '../../src-shared/console/outbox.ts';
import type { StaffActionInput } from '../../src-shared/console/staff-actions.ts';
import { REPORT_REASON_LABELS, type ModerationDecision, type ReportReason } from '../../src-shared/domain/moderation-constants.ts';
import type { ModerationCase } from '../../src-shared/domain/moderation-schemas.ts';
import type { Petition, User } from '../../src-shared/domain/schemas.ts';
import { availableDecisions, decisionOutcome, type DecisionRequest, type ModerationSubject } from '../../src-shared/rules/moderation.ts';
import { canManageBans } from '../../src-shared/rules/permissions.ts';
import { bulkResult, type BulkResult } from './bulk.ts';
import { latestEntryFor, matchesSearch } from './queues.ts';

/** The case's petition as the shared decision rule sees it. */
export function subjectOf(item: Pick<ModerationCase, 'petition' | 'openReports'>): ModerationSubject {
  const moderation = item.petition.moderation;
  return { state: moderation?.state ?? null, openReports: item.openReports, rejectionCode: moderation?.reasonCode ?? null };
}

export function decisionsFor(item: Pick<ModerationCase, 'petition' | 'openReports'>): ModerationDecision[] {
  return availableDecisions(subjectOf(item));
}

/** The administrator may ban the creator from the card: a known creator, not banned yet, not themselves. */
export function canBanCreator(user: User | null, item: ModerationCase): boolean {
  return canManageBans(user) && item.creator.id !== null && !item.creator.banned && item.creator.id !== user?.id;
}

/** "Hidden", "Rejected", or "Reported" (still visible, with open reports). */
export function caseStateLabel(item: Pick<ModerationCase, 'petition'>): string {
  switch (item.petition.moderation?.state) {
    case 'hidden':
      return 'Hidden';
    case 'rejected':
      return 'Rejected';
    default:
      return 'Reported';
  }
}

/** "Offensive or abusive ×2, Spam or advertising" — the open reports' reasons, most given first. */
export function reasonsSummary(item: Pick<ModerationCase, 'reports'>): string {
  const counts = new Map<ReportReason, number>();
  for (const report of item.reports) if (report.open) counts.set(report.reason, (counts.get(report.reason) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${REPORT_REASON_LABELS[reason]}${n > 1 ? ` ×${n}` : ''}`)
    .join(', ');
}

/**
 * The cases a queue view shows: what the last read says, plus cases with a decision still on its way
 * (queued, sending, or needing attention) as they were last read, at the end. A case leaves the
 * queue once its decision applied and the server's queue no longer holds it.
 */
export function withDecisionsOnTheirWay(
  read: readonly ModerationCase[],
  seen: Readonly<Record<number, ModerationCase>>,
  entries: readonly OutboxEntry[],
): ModerationCase[] {
  const ids = new Set(read.map((item) => item.petition.id));
  const extra: ModerationCase[] = [];
  for (const entry of entries) {
    const id = 'petitionId' in entry.action ? entry.action.petitionId : null;
    if (id === null || ids.has(id) || entry.state === 'applied' || entry.state === 'cancelled' || !requestOf(entry.action)) continue;
    const last = seen[id];
    if (last && latestEntryFor(entries, id) === entry) {
      extra.push(last);
      ids.add(id);
    }
  }
  return extra.length ? [...read, ...extra] : [...read];
}

/** Search by number or title, as the other queues. The server's order (most open reports first) is kept. */
export function moderationItems(items: readonly ModerationCase[], search: string): ModerationCase[] {
  return items.filter((item) => matchesSearch(item.petition, search));
}

/** The staff action that queues a decision about this petition, based on the version shown. */
export function decisionAction(petition: Pick<Petition, 'id' | 'version'>, request: DecisionRequest): StaffActionInput {
  const base = { petitionId: petition.id, baseVersion: petition.version };
  switch (request.decision) {
    case 'keep':
      return { kind: 'moderation.keep', ...base };
    case 'restore':
      return { kind: 'moderation.restore', ...base };
    case 'hide':
      return { kind: 'moderation.hide', ...base, reason: request.reason.trim() };
    case 'reject':
      return { kind: 'moderation.reject', ...base, reasonCode: request.reasonCode };
  }
}

/** The decision a queued moderation action stands for, or null for other actions. */
export function requestOf(action: StaffActionInput): DecisionRequest | null {
  switch (action.kind) {
    case 'moderation.keep':
      return { decision: 'keep' };
    case 'moderation.restore':
      return { decision: 'restore' };
    case 'moderation.hide':
      return { decision: 'hide', reason: action.reason };
    case 'moderation.reject':
      return { decision: 'reject', reasonCode: action.reasonCode };
    default:
      return null;
  }
}

export interface BulkDecisionPlan {
  /** Sent: the decision applies or changes nothing (the server answers both per petition). */
  send: ModerationCase[];
  /** Not sent: the petition's state refuses the decision, with the shared rule's text. */
  refused: { item: ModerationCase; message: string }[];
  willChange: number;
  unchanged: number;
}

/** What a bulk decision would do to the chosen cases, before anything is queued. */
export function planBulkDecision(items: readonly ModerationCase[], request: DecisionRequest): BulkDecisionPlan {
  const plan: BulkDecisionPlan = { send: [], refused: [], willChange: 0, unchanged: 0 };
  for (const item of items) {
    const outcome = decisionOutcome(subjectOf(item), request);
    if (outcome.kind === 'refused') {
      plan.refused.push({ item, message: outcome.message });
      continue;
    }
    plan.send.push(item);
    if (outcome.kind === 'apply') plan.willChange += 1;
    else plan.unchanged += 1;
  }
  return plan;
}

/**
 * One petition's result in a bulk decision, as the bulk status override shows it: an applied
 * decision that changed nothing when chosen (the server answers such a no-op with success) is
 * "unchanged".
 */
export function moderationBulkResult(entry: OutboxEntry, chosen: Pick<ModerationCase, 'petition' | 'openReports'>): BulkResult {
  const request = requestOf(entry.action);
  if (entry.state === 'applied' && request && decisionOutcome(subjectOf(chosen), request).kind === 'unchanged') return 'unchanged';
  return bulkResult(entry, null);
}
