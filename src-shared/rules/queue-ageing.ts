/**
 * How long a queued petition has waited and whether it is due soon or overdue
 * (docs/console-team.md#queue-ageing). The server counts with these (queue summary, statistics) and
 * the clients mirror them (marks, order, navigation counts): one rule, written here.
 */
import type { QueueKind } from '../domain/team-constants.ts';
import { DEFAULT_DEBATE_TARGET_DAYS, DEFAULT_RESPONSE_TARGET_DAYS } from '../domain/team-constants.ts';
import { DAY_MS } from './limits.ts';

export { DAY_MS };

export interface QueueTarget {
  /** Days from the threshold within which the petition should be dealt with. */
  targetDays: number;
  /** "Due soon" is the last this many days before the target. */
  dueSoonDays: number;
}
export type QueueTargets = Record<QueueKind, QueueTarget>;

/**
 * The due-soon window: the last fifth of the target, at least one day (14 days → due soon from
 * day 11, as the UK petitions site marks moderation "nearly overdue" from 11 of 14 days).
 */
export function dueSoonWindowDays(targetDays: number): number {
  return Math.max(1, Math.ceil(targetDays / 5));
}

export function queueTargets(responseTargetDays: number, debateTargetDays: number): QueueTargets {
  return {
    response: { targetDays: responseTargetDays, dueSoonDays: dueSoonWindowDays(responseTargetDays) },
    debate: { targetDays: debateTargetDays, dueSoonDays: dueSoonWindowDays(debateTargetDays) },
  };
}

export const DEFAULT_QUEUE_TARGETS: QueueTargets = queueTargets(DEFAULT_RESPONSE_TARGET_DAYS, DEFAULT_DEBATE_TARGET_DAYS);

/** What ageing reads of a petition (the API's Petition has these fields). */
export interface AgeingPetition {
  created: string;
  /** When the petition first reached 10 signatures or was put in the response queue. */
  responseThresholdReachedAt?: string | null;
  /** When it first reached 20 signatures or was put in the debate queue. */
  debateThresholdReachedAt?: string | null;
}

/**
 * Where a queue's clock starts: the threshold crossing, else (a petition from before the crossing
 * was recorded, or put in a queue by hand before the record) its creation, which never hides an
 * old petition behind a young clock.
 */
export function waitingSince(petition: AgeingPetition, kind: QueueKind): string {
  const crossed = kind === 'response' ? petition.responseThresholdReachedAt : petition.debateThresholdReachedAt;
  return crossed ?? petition.created;
}

export type AgeingMark = 'due_soon' | 'overdue';

export interface QueueAgeing {
  since: string;
  waitedMs: number;
  /** Whole days waited. */
  days: number;
  /** When the target is reached. */
  dueAt: string;
  mark: AgeingMark | null;
}

export function queueAgeing(petition: AgeingPetition, kind: QueueKind, now: number, targets: QueueTargets): QueueAgeing {
  const since = waitingSince(petition, kind);
  const start = Date.parse(since);
  const waitedMs = Math.max(0, now - start);
  const { targetDays, dueSoonDays } = targets[kind];
  const mark: AgeingMark | null =
    waitedMs > targetDays * DAY_MS ? 'overdue' : waitedMs >= (targetDays - dueSoonDays) * DAY_MS ? 'due_soon' : null;
  return { since, waitedMs, days: Math.floor(waitedMs / DAY_MS), dueAt: new Date(start + targetDays * DAY_MS).toISOString(), mark };
}

export const AGEING_MARK_LABELS: Record<AgeingMark, string> = { due_soon: 'Due soon', overdue: 'Overdue' };

function days(n: number): string {
  return `${n} ${n === 1 ? 'day' : 'days'}`;
}

/** "waiting 3 days", "waiting 12 days, due in 2 days", "waiting 16 days, 2 days overdue". */
export function ageingText(ageing: QueueAgeing, now: number): string {
  const waiting = `waiting ${days(ageing.days)}`;
  const due = Date.parse(ageing.dueAt);
  if (ageing.mark === 'overdue') {
    const late = Math.floor((now - due) / DAY_MS);
    return `${waiting}, ${late < 1 ? 'overdue since today' : `${days(late)} overdue`}`;
  }
  if (ageing.mark === 'due_soon') {
    const left = Math.ceil((due - now) / DAY_MS);
    return `${waiting}, ${left <= 0 ? 'due today' : `due in ${days(left)}`}`;
  }
  return waiting;
}

export interface QueueCounts {
  total: number;
  dueSoon: number;
  overdue: number;
}

export function countByAgeing(petitions: readonly AgeingPetition[], kind: QueueKind, now: number, targets: QueueTargets): QueueCounts {
  const counts: QueueCounts = { total: petitions.length, dueSoon: 0, overdue: 0 };
  for (const petition of petitions) {
    const { mark } = queueAgeing(petition, kind, now, targets);
    if (mark === 'overdue') counts.overdue += 1;
    else if (mark === 'due_soon') counts.dueSoon += 1;
  }
  return counts;
}

/** Longest waiting first (the earliest clock start), then by number. */
export function byLongestWaiting<T extends AgeingPetition & { id: number }>(kind: QueueKind): (a: T, b: T) => number {
  return (a, b) => Date.parse(waitingSince(a, kind)) - Date.parse(waitingSince(b, kind)) || a.id - b.id;
}
