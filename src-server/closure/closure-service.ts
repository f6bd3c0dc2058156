/**
 * Automatic closure (docs/rules.md#closure). Two rules:
 * - an open petition older than three weeks with fewer than 10 signatures closes for insufficient signatures;
 * - a petition not yet closed whose term has ended (stored status first, else the dates) closes with the term,
 *   one audited action per term; a term current again reopens what its completion closed (term-closures.ts).
 * The insufficient-signature rule runs first, so a small petition that also sits in an ended term
 * keeps the more specific reason. Both rules only touch petitions that are not closed, so running
 * this again closes nothing new: the call is idempotent.
 */
import type { Kysely, Transaction } from 'kysely';
import { INSUFFICIENT_SIGNATURES_CLOSE_DAYS, RESPONSE_THRESHOLD } from '../../src-shared/domain/constants.ts';
import { termStatus } from '../../src-shared/rules/terms.ts';
import type { Database, Db } from '../db/schema.ts';
import { recordPetitionEvents, type NewPetitionEvent } from '../feed/events.ts';
import { closeTermPetitions, reopenTermPetitions, SYSTEM_ACTOR, termsWithClosedPetitions } from '../terms/term-closures.ts';
import { listTerms } from '../terms/terms-repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ClosureCounts {
  insufficientSignatures: number;
  termEnded: number;
}

/**
 * Only the literal 'open' status: a petition staff have answered, scheduled or re-statused is no
 * longer waiting for signatures, whatever its count.
 */
async function closeInsufficientlySigned(db: Kysely<Database>, now: Date, events: NewPetitionEvent[]): Promise<number> {
  const stamp = now.toISOString();
  const cutoff = new Date(now.getTime() - INSUFFICIENT_SIGNATURES_CLOSE_DAYS * DAY_MS).toISOString();
  const closed = await db
    .updateTable('petitions')
    .set((eb) => ({
      status: 'closed',
      closure_reason: 'three_weeks_insufficient_signatures',
      closed_at: stamp,
      updated_at: stamp,
      version: eb('version', '+', 1),
    }))
    .where('status', '=', 'open')
    .where('signature_count', '<', RESPONSE_THRESHOLD)
    .where('created_at', '<', cutoff)
    .returning('id')
    .execute();
  for (const { id } of closed) {
    events.push({ petitionId: id, detail: { kind: 'petition_closed', reason: 'three_weeks_insufficient_signatures' }, actorId: null, at: now });
  }
  return closed.length;
}

/**
 * Terms ended by their dates (or by a stored status) close their open petitions; terms current again
 * reopen what their completion closed (terms/term-closures.ts). Each is one audited action per term.
 */
async function followTermStatuses(db: Db, now: Date, events: NewPetitionEvent[]): Promise<{ closed: number; reopened: number }> {
  const terms = await listTerms(db, now);
  const waiting = new Set(await termsWithClosedPetitions(db));
  let closed = 0;
  let reopened = 0;
  for (const term of terms) {
    const status = termStatus(term, now);
    if (status === 'completed') closed += (await closeTermPetitions(db, term.id, now, SYSTEM_ACTOR, events, null))?.petitionIds.length ?? 0;
    else if (status === 'current' && waiting.has(term.id)) {
      reopened += (await reopenTermPetitions(db, term.id, now, SYSTEM_ACTOR, events, null))?.petitionIds.length ?? 0;
    }
  }
  return { closed, reopened };
}

export async function closeExpiredPetitions(db: Kysely<Database>, now: Date): Promise<ClosureCounts> {
  return db.transaction().execute((trx) => closeExpiredPetitionsIn(trx, now));
}

/**
 * The closure rules inside the caller's transaction; what each closed petition's signers are told
 * is recorded once every petition row is written (feed/events.ts).
 */
export async function closeExpiredPetitionsIn(trx: Transaction<Database>, now: Date): Promise<ClosureCounts> {
  const events: NewPetitionEvent[] = [];
  const insufficientSignatures = await closeInsufficientlySigned(trx, now, events);
  const terms = await followTermStatuses(trx, now, events);
  await recordPetitionEvents(trx, events);
  return { insufficientSignatures, termEnded: terms.closed };
}

export function totalClosed(counts: ClosureCounts): number {
  return counts.insufficientSignatures + counts.termEnded;
}
