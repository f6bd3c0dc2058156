/**
 * Automatic closure (§4, §9). Two rules, each one UPDATE:
 * - an open petition older than three weeks with fewer than 10 signatures closes for insufficient signatures;
 * - a petition not yet closed whose term has ended (stored status first, else the dates) closes with the term.
 * The insufficient-signature rule runs first, so a small petition that also sits in an ended term
 * keeps the more specific reason. Both rules only touch petitions that are not closed, so running
 * this again closes nothing new: the call is idempotent.
 */
import type { Kysely, Transaction } from 'kysely';
import { INSUFFICIENT_SIGNATURES_CLOSE_DAYS, PETITION_STATUSES, RESPONSE_THRESHOLD } from '../../src-shared/domain/constants.ts';
import { termStatus } from '../../src-shared/rules/terms.ts';
import type { Database } from '../db/schema.ts';
import { listTerms } from '../terms/terms-repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** "Not closed" as a list, so the (term_id, status) index finds exactly the petitions still to close. */
const NOT_CLOSED = PETITION_STATUSES.filter((status) => status !== 'closed');

export interface ClosureCounts {
  insufficientSignatures: number;
  termEnded: number;
}

/**
 * Only the literal 'open' status: a petition staff have answered, scheduled or re-statused is no
 * longer waiting for signatures, whatever its count.
 */
async function closeInsufficientlySigned(db: Kysely<Database>, now: Date): Promise<number> {
  const stamp = now.toISOString();
  const cutoff = new Date(now.getTime() - INSUFFICIENT_SIGNATURES_CLOSE_DAYS * DAY_MS).toISOString();
  const result = await db
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
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

async function closeEndedTerms(db: Kysely<Database>, now: Date): Promise<number> {
  const ended = (await listTerms(db, now)).filter((term) => termStatus(term, now) === 'completed').map((term) => term.id);
  if (!ended.length) return 0;
  const stamp = now.toISOString();
  const result = await db
    .updateTable('petitions')
    .set((eb) => ({
      status: 'closed',
      closure_reason: 'term_ended',
      closed_at: stamp,
      updated_at: stamp,
      version: eb('version', '+', 1),
    }))
    .where('term_id', 'in', ended)
    .where('status', 'in', NOT_CLOSED)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function closeExpiredPetitions(db: Kysely<Database>, now: Date): Promise<ClosureCounts> {
  return db.transaction().execute((trx) => closeExpiredPetitionsIn(trx, now));
}

/** The closure rules inside the caller's transaction. */
export async function closeExpiredPetitionsIn(trx: Transaction<Database>, now: Date): Promise<ClosureCounts> {
  return {
    insufficientSignatures: await closeInsufficientlySigned(trx, now),
    termEnded: await closeEndedTerms(trx, now),
  };
}

export function totalClosed(counts: ClosureCounts): number {
  return counts.insufficientSignatures + counts.termEnded;
}
