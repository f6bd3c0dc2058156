/**
 * What a term's completion does to its petitions, and how the term becoming current again undoes it.
 *
 * Completing a term (by the administrator's edit or by its end date passing) closes every petition of
 * the term that is not closed yet, as ONE audited action that lists the petitions it closed; each one
 * is remembered in term_closed_petitions with the closure's stamp. When the term is current again
 * (by edit or by its dates), exactly those petitions reopen, each with its automatic status, provided
 * nothing changed them since: still closed for `term_ended` at that same stamp, still in that term.
 * A petition closed for three weeks under 10 signatures, or closed or reopened by hand since, stays.
 * The edit route and the closure pass both come here, so the two paths cannot drift apart.
 */
import { PETITION_STATUSES, type TermStatus } from '../../src-shared/domain/constants.ts';
import type { Term } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit, type AuditActor } from '../audit/audit-log.ts';
import type { Db } from '../db/schema.ts';
import { recordPetitionEvents, type NewPetitionEvent } from '../feed/events.ts';
import { readDebateInfo } from '../petitions/petition-record.ts';

/** "Not closed" as a list, so the (term_id, status) index finds exactly the petitions still to close. */
export const NOT_CLOSED = PETITION_STATUSES.filter((status) => status !== 'closed');

/** Who the audit log names for what the server does on its own (the closure pass, by the dates). */
export const SYSTEM_ACTOR: AuditActor = { id: 'system', rank: 0, government_rank: 0, can_sign: false, userType: 'System' };

export interface TermPetitionsChange {
  termId: number;
  petitionIds: number[];
}

/** The server's own actions are nobody's: every member hears of them. */
const eventActorId = (actor: AuditActor) => (actor.id === SYSTEM_ACTOR.id ? null : actor.id);

async function openPetitionIds(db: Db, termId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('petitions')
    .select('id')
    .where('term_id', '=', termId)
    .where('status', 'in', NOT_CLOSED)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

function reopenable(db: Db, termId: number) {
  return db
    .selectFrom('term_closed_petitions as c')
    .innerJoin('petitions as p', 'p.id', 'c.petition_id')
    .where('c.term_id', '=', termId)
    .where('p.term_id', '=', termId)
    .where('p.status', '=', 'closed')
    .where('p.closure_reason', '=', 'term_ended')
    .whereRef('p.closed_at', '=', 'c.closed_at');
}

/** How many petitions completing the term would close now. */
export async function countPetitionsToClose(db: Db, termId: number): Promise<number> {
  const row = await db
    .selectFrom('petitions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('term_id', '=', termId)
    .where('status', 'in', NOT_CLOSED)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many petitions the term being current again would reopen now. */
export async function countPetitionsToReopen(db: Db, termId: number): Promise<number> {
  const row = await reopenable(db, termId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countTermPetitions(db: Db, termId: number): Promise<number> {
  const row = await db
    .selectFrom('petitions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('term_id', '=', termId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Closes the term's open petitions as one audited action; null when there was nothing to close.
 * What their signers are told ("closed because the term ended") is added to `events`, for the
 * caller to record once its petition rows are written (feed/events.ts).
 */
export async function closeTermPetitions(
  db: Db,
  termId: number,
  now: Date,
  actor: AuditActor,
  events: NewPetitionEvent[],
  madeAt: Date | null,
): Promise<TermPetitionsChange | null> {
  const petitionIds = await openPetitionIds(db, termId);
  if (!petitionIds.length) return null;
  const stamp = now.toISOString();
  await db
    .updateTable('petitions')
    .set((eb) => ({
      status: 'closed',
      closure_reason: 'term_ended',
      closed_at: stamp,
      updated_at: stamp,
      version: eb('version', '+', 1),
    }))
    .where('term_id', '=', termId)
    .where('status', 'in', NOT_CLOSED)
    .execute();
  // A row left from an earlier closure that was undone by hand is replaced by this closure's.
  await db.deleteFrom('term_closed_petitions').where('term_id', '=', termId).where('petition_id', 'in', petitionIds).execute();
  for (let i = 0; i < petitionIds.length; i += 500) {
    await db
      .insertInto('term_closed_petitions')
      .values(petitionIds.slice(i, i + 500).map((petitionId) => ({ term_id: termId, petition_id: petitionId, closed_at: stamp })))
      .execute();
  }
  await writeAudit(db, {
    actor,
    action: AUDIT_ACTIONS.termClosePetitions,
    targetType: 'term',
    targetId: termId,
    before: null,
    after: { closureReason: 'term_ended', petitionIds },
    at: now,
    madeAt,
  });
  for (const petitionId of petitionIds) {
    events.push({ petitionId, detail: { kind: 'petition_closed', reason: 'term_ended' }, actorId: eventActorId(actor), at: now });
  }
  return { termId, petitionIds };
}

/**
 * Reopens what the term's completion closed and nothing else, each petition with the status its
 * facts give (signatures, response, debate). Null when there was nothing to reopen. Each creator is
 * told of the new status through `events` (recorded by the caller, as for closing).
 */
export async function reopenTermPetitions(
  db: Db,
  termId: number,
  now: Date,
  actor: AuditActor,
  events: NewPetitionEvent[],
  madeAt: Date | null,
): Promise<TermPetitionsChange | null> {
  const rows = await reopenable(db, termId)
    .select(['p.id', 'p.signature_count', 'p.government_response', 'p.debate_info'])
    .orderBy('p.id')
    .execute();
  // Rows whose petitions changed since are forgotten: that change stands.
  await db.deleteFrom('term_closed_petitions').where('term_id', '=', termId).execute();
  if (!rows.length) return null;
  const stamp = now.toISOString();
  for (const row of rows) {
    const status = automaticStatus({
      status: 'open',
      signatures: row.signature_count,
      governmentResponse: row.government_response,
      debateInfo: readDebateInfo(row.debate_info),
    });
    await db
      .updateTable('petitions')
      .set((eb) => ({ status, closure_reason: null, closed_at: null, updated_at: stamp, version: eb('version', '+', 1) }))
      .where('id', '=', row.id)
      .execute();
    events.push({ petitionId: row.id, detail: { kind: 'status_changed', from: 'closed', to: status }, actorId: eventActorId(actor), at: now });
  }
  const petitionIds = rows.map((row) => row.id);
  await writeAudit(db, {
    actor,
    action: AUDIT_ACTIONS.termReopenPetitions,
    targetType: 'term',
    targetId: termId,
    before: null,
    after: { petitionIds },
    at: now,
    madeAt,
  });
  return { termId, petitionIds };
}

/** Terms with petitions waiting to be reopened: few, so the closure pass checks only these. */
export async function termsWithClosedPetitions(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('term_closed_petitions').select('term_id').distinct().execute();
  return rows.map((row) => row.term_id);
}

/**
 * What a term's effective status means for its petitions: completed closes, current reopens. Records
 * what their signers are told, so call it as the last write of the edit's transaction. `madeAt` is
 * the edit's (its audit rows are part of the same staff action: docs/audit.md#made-at-and-applied-at).
 */
export async function applyTermStatus(
  db: Db,
  term: Pick<Term, 'id'>,
  status: TermStatus,
  now: Date,
  actor: AuditActor,
  madeAt: Date | null,
): Promise<{ closed: TermPetitionsChange | null; reopened: TermPetitionsChange | null }> {
  const events: NewPetitionEvent[] = [];
  const closed = status === 'completed' ? await closeTermPetitions(db, term.id, now, actor, events, madeAt) : null;
  const reopened = status === 'current' ? await reopenTermPetitions(db, term.id, now, actor, events, madeAt) : null;
  await recordPetitionEvents(db, events);
  return { closed, reopened };
}
