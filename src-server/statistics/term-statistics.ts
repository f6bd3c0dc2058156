/**
 * The administrator's statistics of one term (docs/console-team.md#statistics): petitions created
 * and signatures per UK day, how long answers took from the threshold (median and 90th percentile),
 * and the queues' backlog and overdue petitions at the end of each day.
 *
 * Everything is read from what the database holds now: a deleted petition or a removed response
 * leaves the history, and a petition's answer time is when its current answer was first recorded
 * (the response's `addedAt`; the debate outcome's last change).
 */
import { sql } from 'kysely';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Petition, Term } from '../../src-shared/domain/schemas.ts';
import type { QueueKind } from '../../src-shared/domain/team-constants.ts';
import type { HandlingTimes, Statistics, StatisticsDay } from '../../src-shared/domain/team-schemas.ts';
import { isAwaitingDebate, isAwaitingResponse } from '../../src-shared/rules/classification.ts';
import { addDays, londonDay, londonMidnight } from '../../src-shared/rules/dates.ts';
import { DAY_MS, type QueueTargets } from '../../src-shared/rules/queue-ageing.ts';
import type { Db } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { findCurrentTerm, listTerms, requireTerm } from '../terms/terms-repository.ts';

/** A term's series never run longer than this many days (a term of ten years is already absurd). */
const MAX_DAYS = 3660;

/** One petition's stay in one queue: when its clock started, and when it left (null: still there). */
export interface QueueStay {
  start: number;
  left: number | null;
  /** When it was answered, if that is how it left (the handling time runs to here). */
  answered: number | null;
}

/** Median (the mean of the middle two for an even count) and 90th percentile (nearest rank), in days. */
export function handlingTimes(stays: readonly QueueStay[]): HandlingTimes {
  const days = stays
    .filter((stay) => stay.answered !== null)
    .map((stay) => Math.max(0, stay.answered! - stay.start) / DAY_MS)
    .sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  const n = days.length;
  const median = n === 0 ? null : n % 2 === 1 ? days[(n - 1) / 2]! : (days[n / 2 - 1]! + days[n / 2]!) / 2;
  const p90 = n === 0 ? null : days[Math.ceil(0.9 * n) - 1]!;
  return {
    handled: n,
    medianDays: median === null ? null : round(median),
    p90Days: p90 === null ? null : round(p90),
    waiting: stays.filter((stay) => stay.left === null).length,
  };
}

function time(text: string | null | undefined): number | null {
  if (!text) return null;
  const value = Date.parse(text);
  return Number.isFinite(value) ? value : null;
}

/** The response queue: in it while the shared rule says so; answered when the current response was added. */
export function responseStay(petition: Petition, updatedAt: string): QueueStay | null {
  const start = time(petition.responseThresholdReachedAt);
  if (start === null) return null;
  const answered = petition.governmentResponse ? (time(petition.governmentResponseMeta?.addedAt) ?? time(updatedAt)) : null;
  if (isAwaitingResponse(petition)) return { start, left: null, answered: null };
  return { start, left: answered ?? time(updatedAt) ?? start, answered };
}

/** The debate queue: a scheduled debate still waits; an outcome (debated, not debated, cancelled) answers it. */
export function debateStay(petition: Petition, updatedAt: string): QueueStay | null {
  const start = time(petition.debateThresholdReachedAt);
  if (start === null) return null;
  const meta = petition.debateInfoMeta;
  const decided =
    petition.debateInfo && petition.debateInfo.status !== 'scheduled' ? (time(meta?.editedAt) ?? time(meta?.addedAt) ?? time(updatedAt)) : null;
  if (isAwaitingDebate(petition)) return { start, left: null, answered: null };
  return { start, left: decided ?? time(updatedAt) ?? start, answered: decided };
}

/** Waiting at `instant`, and of those, waiting longer than the target. */
export function backlogAt(stays: readonly QueueStay[], instant: number, targetDays: number): { backlog: number; overdue: number } {
  let backlog = 0;
  let overdue = 0;
  for (const stay of stays) {
    if (stay.start >= instant || (stay.left !== null && stay.left <= instant)) continue;
    backlog += 1;
    if (instant - stay.start > targetDays * DAY_MS) overdue += 1;
  }
  return { backlog, overdue };
}

/** Counts per UTC hour (ISO text's first 13 characters) folded into UK days: the UK is a whole number of hours from UTC. */
function perLondonDay(rows: readonly { hour: string; count: unknown }[]): Map<string, number> {
  const days = new Map<string, number>();
  for (const row of rows) {
    const day = londonDay(new Date(`${row.hour}:00:00.000Z`));
    days.set(day, (days.get(day) ?? 0) + Number(row.count));
  }
  return days;
}

async function chooseTerm(db: Db, termId: number | undefined, now: Date): Promise<Term> {
  if (termId !== undefined) return requireTerm(db, termId, now);
  const current = await findCurrentTerm(db, now);
  if (current) return current;
  const latest = (await listTerms(db, now)).at(-1);
  if (!latest) throw new HttpError(404, ERRORS.noTermForStatistics);
  return latest;
}

export async function readTermStatistics(db: Db, options: { termId?: number; targets: QueueTargets; now: Date }): Promise<Statistics> {
  const { targets, now } = options;
  const term = await chooseTerm(db, options.termId, now);
  const from = term.startDate;
  const today = londonDay(now);
  const to = term.endDate < today ? term.endDate : today;

  const hour = (column: 'petitions.created_at' | 'signatures.signed_at') => sql<string>`substr(${sql.ref(column)}, 1, 13)`;
  const createdRows = await db
    .selectFrom('petitions')
    .select([hour('petitions.created_at').as('hour'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('petitions.term_id', '=', term.id)
    .groupBy(hour('petitions.created_at'))
    .execute();
  const signatureRows = await db
    .selectFrom('signatures')
    .innerJoin('petitions', 'petitions.id', 'signatures.petition_id')
    .select([hour('signatures.signed_at').as('hour'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('petitions.term_id', '=', term.id)
    .groupBy(hour('signatures.signed_at'))
    .execute();
  const queued = await db
    .selectFrom('petitions')
    .selectAll()
    .where('term_id', '=', term.id)
    .where((eb) => eb.or([eb('response_threshold_reached_at', 'is not', null), eb('debate_threshold_reached_at', 'is not', null)]))
    .execute();

  const stays: Record<QueueKind, QueueStay[]> = { response: [], debate: [] };
  for (const row of queued) {
    const petition = toPetition(row);
    const response = responseStay(petition, row.updated_at);
    const debate = debateStay(petition, row.updated_at);
    if (response) stays.response.push(response);
    if (debate) stays.debate.push(debate);
  }

  const created = perLondonDay(createdRows);
  const signed = perLondonDay(signatureRows);
  const days: StatisticsDay[] = [];
  for (let day = from; day <= to && days.length < MAX_DAYS; day = addDays(day, 1)) {
    // The end of the day, or now for today: the backlog as it stood then.
    const end = Math.min(londonMidnight(addDays(day, 1)).getTime(), now.getTime());
    const response = backlogAt(stays.response, end, targets.response.targetDays);
    const debate = backlogAt(stays.debate, end, targets.debate.targetDays);
    days.push({
      day,
      petitionsCreated: created.get(day) ?? 0,
      signatures: signed.get(day) ?? 0,
      responseBacklog: response.backlog,
      responseOverdue: response.overdue,
      debateBacklog: debate.backlog,
      debateOverdue: debate.overdue,
    });
  }

  const sum = (map: Map<string, number>) => [...map.values()].reduce((total, n) => total + n, 0);
  return {
    term: { id: term.id, name: term.name, startDate: term.startDate, endDate: term.endDate },
    from,
    to,
    targets,
    petitionsCreated: sum(created),
    signatures: sum(signed),
    responseTimes: handlingTimes(stays.response),
    debateTimes: handlingTimes(stays.debate),
    days,
  };
}
