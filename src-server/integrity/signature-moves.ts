/**
 * Moving signatures between `signatures` and `invalidated_signatures`, a chunk at a time, inside
 * the runner's transaction (docs/integrity.md#invalidation). Each petition whose signatures move gets
 * its exact new count and the status that follows (statusAfterRecount) in the same transaction, so
 * nothing ever counts an invalidated signature:
 *
 * - PostgreSQL: the petition row is locked first (FOR UPDATE, ascending ids, as signing batches lock
 *   theirs), so a batch signing the same petition waits for the chunk and then reads the new count.
 *   The first signers are read from the signatures (migration 0027); the count UPDATE's change
 *   notice makes every node's petition cache read them again.
 * - SQLite: a Kysely transaction holds the process's one connection, so no signing batch and no
 *   written-behind count flush (petitions/signature-counts.ts) can run meanwhile; the count pending
 *   in memory is added before the new count is stored exactly, and the pending entry is dropped
 *   (undone if the transaction rolls back). The first signers are kept by the row triggers.
 *
 * Invalidation walks each petition's matching signatures newest first, and restore puts them back
 * oldest first: either way a moved row is rarely among the first signers, which would make SQLite's
 * triggers rebuild the list.
 */
import type { Transaction } from 'kysely';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { statusAfterRecount } from '../../src-shared/rules/signature-integrity.ts';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database, Db } from '../db/schema.ts';
import type { SignatureCounts } from '../petitions/signature-counts.ts';
import { readDebateInfo } from '../petitions/petition-record.ts';
import { whereMatching, type ResolvedCriteria } from './invalidation-criteria.ts';

/** Petitions an "all petitions" chunk may look at without moving anything, so a chunk stays short. */
const PETITIONS_PER_CHUNK = 200;

export interface MoveScope {
  trx: Transaction<Database>;
  dialect: SqlDialectName;
  counts: SignatureCounts;
  /** In-memory steps to undo if the transaction does not commit (newest last). */
  undo: (() => void)[];
  now: Date;
}

/** Where an invalidation continues: a petition, and the (signed_at, user) key its next rows sort before. */
export interface InvalidationCursor {
  petitionId: number;
  before: { signedAt: string; userId: string } | null;
}

export interface ChunkResult<C> {
  moved: number;
  /** Petitions whose count this chunk changed for the first time in the job. */
  petitionsChanged: number;
  /** Where the next chunk starts; null when the job has nothing left. */
  next: C | null;
}

/** Locks the petitions that exist among `ids` (ascending) and returns them. */
export async function lockPetitions(scope: MoveScope, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const sorted = [...ids].sort((a, b) => a - b);
  const query = scope.trx.selectFrom('petitions').select('id').where('id', 'in', sorted).orderBy('id');
  const rows = scope.dialect === 'postgres' ? await query.forUpdate().execute() : await query.execute();
  return rows.map((row) => row.id);
}

/** Stores the petition's count moved by `delta` and the status that follows; true when the status changed. */
async function applyCountChange(scope: MoveScope, petitionId: number, delta: number): Promise<boolean> {
  const { trx } = scope;
  const row = await trx
    .selectFrom('petitions')
    .select(['signature_count', 'status', 'government_response', 'debate_info'])
    .where('id', '=', petitionId)
    .executeTakeFirstOrThrow();
  const before = scope.counts.live(petitionId, row.signature_count);
  const after = before + delta;
  const status = statusAfterRecount(
    { status: row.status as PetitionStatus, signatures: before, governmentResponse: row.government_response, debateInfo: readDebateInfo(row.debate_info) },
    after,
  );
  const stamp = scope.now.toISOString();
  if (status !== row.status) {
    // As when a signature crosses a threshold: what staff see changed, so the version moves.
    await trx
      .updateTable('petitions')
      .set((eb) => ({ signature_count: after, status, version: eb('version', '+', 1), updated_at: stamp }))
      .where('id', '=', petitionId)
      .execute();
  } else {
    await trx
      .updateTable('petitions')
      .set({ signature_count: after })
      .where('id', '=', petitionId)
      .execute();
  }
  scope.undo.push(scope.counts.record(petitionId, { written: true }, stamp));
  return status !== row.status;
}

/**
 * Deletes these members' signatures from one petition and stores its count and the status that
 * follows, as unsigning would (a deleted member's signatures on open petitions, docs/privacy.md#deleting-your-data).
 * The petition must be locked already (PostgreSQL). Returns how many signatures went.
 */
export async function removeSignatures(scope: MoveScope, petitionId: number, userIds: readonly string[]): Promise<number> {
  if (!userIds.length) return 0;
  const removed = await scope.trx
    .deleteFrom('signatures')
    .where('petition_id', '=', petitionId)
    .where('user_id', 'in', [...userIds])
    .returning('user_id')
    .execute();
  if (removed.length) await applyCountChange(scope, petitionId, -removed.length);
  return removed.length;
}

/** The first petition an invalidation looks at. */
export async function firstInvalidationCursor(scope: Pick<MoveScope, 'trx'>, criteria: ResolvedCriteria): Promise<InvalidationCursor | null> {
  if (criteria.petitionId !== null) return { petitionId: criteria.petitionId, before: null };
  return nextPetition(scope, 0);
}

async function nextPetition(scope: Pick<MoveScope, 'trx'>, after: number): Promise<InvalidationCursor | null> {
  const row = await scope.trx.selectFrom('petitions').select((eb) => eb.fn.min<number>('id').as('id')).where('id', '>', after).executeTakeFirst();
  return row?.id === null || row?.id === undefined ? null : { petitionId: Number(row.id), before: null };
}

/** Moves up to `limit` matching signatures into `invalidated_signatures`, marked with the job. */
export async function invalidateChunk(
  scope: MoveScope,
  job: { id: number },
  criteria: ResolvedCriteria,
  start: InvalidationCursor,
  limit: number,
): Promise<ChunkResult<InvalidationCursor>> {
  const { trx } = scope;
  let cursor = start;
  let moved = 0;
  let petitionsChanged = 0;
  for (let visited = 0; moved < limit && visited < PETITIONS_PER_CHUNK; visited += 1) {
    const petitionId = cursor.petitionId;
    const room = limit - moved;
    let picked: { user_id: string; signed_at: string }[] = [];
    if ((await lockPetitions(scope, [petitionId])).length) {
      let query = whereMatching(
        trx.selectFrom('signatures as s').select(['s.user_id', 's.signed_at']).where('s.petition_id', '=', petitionId),
        criteria,
      );
      const before = cursor.before;
      if (before) {
        query = query
          .where('s.signed_at', '<=', before.signedAt)
          .where((eb) => eb.or([eb('s.signed_at', '<', before.signedAt), eb('s.user_id', '<', before.userId)]));
      }
      // Ordered by the whole (petition, signed_at) index, so it is the index the planner walks.
      picked = await query.orderBy('s.petition_id', 'desc').orderBy('s.signed_at', 'desc').orderBy('s.user_id', 'desc').limit(room).execute();
    }
    if (picked.length) {
      // By each table's key: on SQLite (petition, signed_at, user), as the rows were picked (by user
      // id alone its planner walks the petition's signatures, docs/operations.md#the-signatures-table);
      // on PostgreSQL (petition, user).
      const removed = await trx
        .deleteFrom('signatures')
        .where('petition_id', '=', petitionId)
        .where((eb) =>
          scope.dialect === 'postgres'
            ? eb(
                'user_id',
                'in',
                picked.map((row) => row.user_id),
              )
            : eb(
                eb.refTuple('signed_at', 'user_id'),
                'in',
                picked.map((row) => eb.tuple(row.signed_at, row.user_id)),
              ),
        )
        .returningAll()
        .execute();
      const stamp = scope.now.toISOString();
      await trx
        .insertInto('invalidated_signatures')
        .values(removed.map((row) => ({ ...row, job_id: job.id, invalidated_at: stamp })))
        .execute();
      await applyCountChange(scope, petitionId, -removed.length);
      if (!cursor.before) petitionsChanged += 1;
      moved += removed.length;
      const last = picked[picked.length - 1]!;
      cursor = { petitionId, before: { signedAt: last.signed_at, userId: last.user_id } };
    }
    if (picked.length < room) {
      // This petition has nothing more that matches.
      if (criteria.petitionId !== null) return { moved, petitionsChanged, next: null };
      const next = await nextPetition(scope, petitionId);
      if (!next) return { moved, petitionsChanged, next: null };
      cursor = next;
    }
  }
  return { moved, petitionsChanged, next: cursor };
}

/** Where a restore continues: only to count petitions once (its rows leave the table as they go back). */
export interface RestoreCursor {
  lastPetitionId: number | null;
}

/** Puts up to `limit` signatures of an invalidation back, oldest first per petition. */
export async function restoreChunk(
  scope: MoveScope,
  invalidationJobId: number,
  start: RestoreCursor,
  limit: number,
): Promise<ChunkResult<RestoreCursor>> {
  const { trx } = scope;
  const picked = await trx
    .selectFrom('invalidated_signatures')
    .select(['petition_id', 'user_id'])
    .where('job_id', '=', invalidationJobId)
    .orderBy('petition_id')
    .orderBy('signed_at')
    .orderBy('user_id')
    .limit(limit)
    .execute();
  if (!picked.length) return { moved: 0, petitionsChanged: 0, next: null };
  const byPetition = new Map<number, string[]>();
  for (const row of picked) byPetition.set(row.petition_id, [...(byPetition.get(row.petition_id) ?? []), row.user_id]);
  const petitions = await lockPetitions(scope, [...byPetition.keys()]);
  let moved = 0;
  let petitionsChanged = 0;
  let lastPetitionId = start.lastPetitionId;
  for (const petitionId of petitions) {
    const removed = await trx
      .deleteFrom('invalidated_signatures')
      .where('job_id', '=', invalidationJobId)
      .where('petition_id', '=', petitionId)
      .where('user_id', 'in', byPetition.get(petitionId)!)
      .returning(['petition_id', 'user_id', 'username', 'display_name', 'signed_at'])
      .execute();
    removed.sort((a, b) => (a.signed_at < b.signed_at ? -1 : a.signed_at > b.signed_at ? 1 : a.user_id < b.user_id ? -1 : 1));
    // A member cannot sign a petition while their signature on it is invalidated, so no row is in
    // the way; should one be (written by hand), the member keeps the signature they have.
    const inserted = removed.length
      ? await trx
          .insertInto('signatures')
          .values(removed)
          .onConflict((oc) => oc.columns(['petition_id', 'user_id']).doNothing())
          .returning('user_id')
          .execute()
      : [];
    if (inserted.length) await applyCountChange(scope, petitionId, inserted.length);
    if (petitionId !== lastPetitionId) petitionsChanged += 1;
    lastPetitionId = petitionId;
    moved += removed.length;
  }
  // Rows of petitions deleted since (their rows went with them) simply are not there any more.
  return { moved, petitionsChanged, next: { lastPetitionId } };
}

/** How many signatures an invalidation still holds (what its restore will put back). */
export async function invalidatedCount(trx: Db, jobId: number): Promise<number> {
  const row = await trx
    .selectFrom('invalidated_signatures')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
