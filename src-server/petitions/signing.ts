/**
 * Signing and unsigning: the hot path. A signature is one row keyed by (petition, user), so the
 * database itself refuses a second one. Calls that arrive together are written together: they
 * queue, and once per turn of the event loop one transaction applies them all in arrival order
 * (group commit), each with its own answer. Per call it reads the petition, writes or deletes the
 * signature row, and then either stores the new count with the status that the shared
 * automaticStatus rule gives, or (on a large site, when the status stays) leaves the count to
 * signature-counts.ts.
 */
import type { Kysely } from 'kysely';
import { SIGNERS_PREVIEW_COUNT } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { SignResult, User } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { thresholdsCrossed } from '../../src-shared/rules/feed.ts';
import { directSqlite, runDirectTransaction } from '../db/direct-sqlite.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import { recordServerEventInDirectTransaction, thresholdEvent } from '../feed/events.ts';
import { HttpError } from '../http/problem.ts';
import { readDebateInfo } from './petition-record.ts';
import type { SignatureCounts } from './signature-counts.ts';
import { createSignCallQueue, createSigningBatchTally, type SignCall } from './signing-batches.ts';
import { isPubliclyVisible } from './public-visibility.ts';

const petitionForSigning = preparedQuery(['id'], (db, p: { id: number }) =>
  db.selectFrom('petitions').select(['signature_count', 'status', 'government_response', 'debate_info', 'moderation_state']).where('id', '=', p.id),
);

const insertSignature = preparedQuery(
  ['petitionId', 'userId', 'username', 'displayName', 'signedAt'],
  (db, p: { petitionId: number; userId: string; username: string; displayName: string; signedAt: string }) =>
    db
      .insertInto('signatures')
      .values({ petition_id: p.petitionId, user_id: p.userId, username: p.username, display_name: p.displayName, signed_at: p.signedAt })
      .onConflict((oc) => oc.columns(['petition_id', 'user_id']).doNothing()),
);

/** A signature staff invalidated keeps its member from signing that petition again (docs/integrity.md#invalidation). */
const invalidatedSignature = preparedQuery(['petitionId', 'userId'], (db, p: { petitionId: number; userId: string }) =>
  db.selectFrom('invalidated_signatures').select('user_id').where('petition_id', '=', p.petitionId).where('user_id', '=', p.userId),
);

const deleteSignature = preparedQuery(['petitionId', 'userId'], (db, p: { petitionId: number; userId: string }) =>
  db.deleteFrom('signatures').where('petition_id', '=', p.petitionId).where('user_id', '=', p.userId),
);

const storeCount = preparedQuery(['id', 'count'], (db, p: { id: number; count: number }) =>
  db.updateTable('petitions').set({ signature_count: p.count }).where('id', '=', p.id),
);

/** Crossing a threshold changes what staff see, so it bumps the version; a bare count change does not. */
const storeCountAndStatus = preparedQuery(
  ['id', 'count', 'status', 'updatedAt'],
  (db, p: { id: number; count: number; status: string; updatedAt: string }) =>
    db
      .updateTable('petitions')
      .set((eb) => ({ signature_count: p.count, status: p.status, version: eb('version', '+', 1), updated_at: p.updatedAt }))
      .where('id', '=', p.id),
);

/**
 * Whether the change surely rewrites the petition's stored first signers (the triggers of migration
 * 0005): the smaller of the counts before and after is below the list's size when a signer joins a
 * list with room, or one of at most ten signers, all listed, leaves. The row is written then anyway,
 * so its count is written with it rather than later (docs/operations.md#counts-written-behind).
 */
function changesFirstSigners(count: number, delta: number): boolean {
  return Math.min(count, count - delta) < SIGNERS_PREVIEW_COUNT;
}

export function createSigningService(deps: { db: Kysely<Database>; counts: SignatureCounts; now: () => Date }) {
  const { db, counts, now } = deps;
  const direct = directSqlite(db);
  const queue = createSignCallQueue({ now, onTurn: () => void writeBatch() });
  const tally = createSigningBatchTally();

  /** One call inside the batch transaction. Expected refusals are answers, not exceptions. */
  function apply(call: SignCall, defer: boolean, undo: (() => void)[]): SignResult | HttpError {
    const { petitionId, user, stamp } = call;
    const row = petitionForSigning.inDirectTransaction(db, { id: petitionId }).rows[0];
    // A hidden or rejected petition is not there for signers (docs/moderation.md#what-the-public-sees).
    if (!row || !isPubliclyVisible(row)) return new HttpError(404, ERRORS.petitionNotFound);
    if (row.status === 'closed') return new HttpError(409, ERRORS.petitionClosed);
    if (call.action === 'sign' && invalidatedSignature.inDirectTransaction(db, { petitionId, userId: user.id }).rows.length) {
      return new HttpError(403, ERRORS.signatureInvalidated);
    }
    const written =
      call.action === 'sign'
        ? insertSignature.inDirectTransaction(db, { petitionId, userId: user.id, username: user.username, displayName: user.displayName, signedAt: stamp })
        : deleteSignature.inDirectTransaction(db, { petitionId, userId: user.id });
    if (!Number(written.numAffectedRows ?? 0)) return new HttpError(409, call.action === 'sign' ? ERRORS.alreadySigned : ERRORS.notSigned);

    const delta = call.action === 'sign' ? 1 : -1;
    const count = counts.live(petitionId, row.signature_count) + delta;
    // The creator hears of 10 and 20 (once each: the event's dedupe key); rare, so the hot path pays nothing.
    for (const threshold of thresholdsCrossed(count - delta, count)) {
      recordServerEventInDirectTransaction(db, thresholdEvent(petitionId, threshold, new Date(stamp)));
    }
    const status = automaticStatus({
      status: row.status,
      signatures: count,
      governmentResponse: row.government_response,
      debateInfo: readDebateInfo(row.debate_info),
    });
    if (status !== row.status) {
      storeCountAndStatus.inDirectTransaction(db, { id: petitionId, count, status, updatedAt: stamp });
      undo.push(counts.record(petitionId, { written: true }, stamp));
    } else if (defer && !changesFirstSigners(count, delta)) {
      undo.push(counts.record(petitionId, { deferredDelta: delta }, stamp));
    } else {
      storeCount.inDirectTransaction(db, { id: petitionId, count });
      undo.push(counts.record(petitionId, { written: true }, stamp));
    }
    return { signatures: count, signed: call.action === 'sign' };
  }

  async function writeBatch(): Promise<void> {
    const batch = queue.take();
    const undo: (() => void)[] = [];
    const startedAt = performance.now();
    try {
      if (!direct) throw new Error('Signing needs a SQLite database');
      const defer = counts.shouldDefer();
      const outcomes = await runDirectTransaction(db, direct, () => batch.map((call) => apply(call, defer, undo)));
      batch.forEach((call, index) => call.settle(outcomes[index]!));
    } catch (error) {
      // The transaction rolled back: put the in-memory counts back as they were, newest first.
      for (const step of undo.reverse()) step();
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const call of batch) call.settle(failure);
    } finally {
      tally.record(batch.length, startedAt);
    }
  }

  return {
    sign: (user: User, petitionId: number) => queue.submit('sign', user, petitionId),
    unsign: (user: User, petitionId: number) => queue.submit('unsign', user, petitionId),
    batchStats: tally.stats,
  };
}

export type SigningService = ReturnType<typeof createSigningService>;
