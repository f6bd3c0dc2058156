/**
 * Petition events: recording them (inside the change's own transaction) and reading them in order
 * (docs/notifications.md#how-it-is-stored).
 *
 * Recording: `recordPetitionEvents(trx, [...])` is the one way an event is written. Call it
 * in the transaction that makes the change (a staff edit, a signing batch, the closure pass) and as
 * its LAST write: it takes a cluster-wide lock held until commit, so events become visible in id
 * order on every node, and a transaction that held it and then waited for a petition row could
 * deadlock with one holding that row and waiting for it. One row per event, never one per signer.
 *
 * Reading in order: ids are committed in increasing order, so a background consumer (web push)
 * keeps its own cursor and reads `readEventsAfter(db, cursor, n)` until it gets fewer than n; an
 * event it has seen will never be followed by a smaller id. Who receives an event is derived when
 * it is read (feed/recipients.ts), from the signatures, mutes and preferences of that moment.
 */
import { PetitionEventDetailSchema, type PetitionEventDetail } from '../../src-shared/domain/feed-schemas.ts';
import type { EventAudience } from '../../src-shared/domain/feed-constants.ts';
import { eventAudience } from '../../src-shared/rules/feed.ts';
import type { Kysely } from 'kysely';
import { preparedQuery } from '../db/prepared-query.ts';
import { dialectOf } from '../db/dialect.ts';
import type { Database, Db } from '../db/schema.ts';
import { transactionLocks } from '../db/transaction-locks.ts';

/** Rows per INSERT: well under SQLite's and PostgreSQL's parameter limits (7 columns each). */
const INSERT_CHUNK = 500;

export interface NewPetitionEvent {
  petitionId: number;
  detail: PetitionEventDetail;
  /** The staff member whose action this is (their own feed leaves it out); null for the server's own. */
  actorId: string | null;
  at: Date;
  /** At most one event per (petition, key): e.g. 'threshold:10', so crossing 10 again after an unsign says nothing. */
  dedupeKey?: string | null;
}

export interface StoredPetitionEvent {
  id: number;
  petitionId: number;
  detail: PetitionEventDetail;
  audience: EventAudience;
  actorId: string | null;
  at: string;
}

/** The `detail` column: the kind's fields without `kind` (it has its own column). */
export function detailJson(detail: PetitionEventDetail): string {
  const { kind: _kind, ...fields } = detail;
  return JSON.stringify(fields);
}

/** A stored row's detail, checked against the shared schema; null for a row this release cannot read. */
export function parseDetail(kind: string, json: string): PetitionEventDetail | null {
  try {
    const parsed = PetitionEventDetailSchema.safeParse({ ...(JSON.parse(json) as object), kind });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Records events inside the caller's transaction, as its last write (see above). Returns how many
 * were written (a dedupe key already used writes nothing).
 */
export async function recordPetitionEvents(trx: Db, events: readonly NewPetitionEvent[]): Promise<number> {
  if (!events.length) return 0;
  // Serialises event writers from here to commit, so ids become visible in order (PostgreSQL; SQLite has one writer).
  await transactionLocks(dialectOf(trx)).lock(trx, 'petition-events', 'append');
  let written = 0;
  for (let start = 0; start < events.length; start += INSERT_CHUNK) {
    const rows = events.slice(start, start + INSERT_CHUNK).map((event) => ({
      petition_id: event.petitionId,
      kind: event.detail.kind,
      audience: eventAudience(event.detail.kind),
      detail: detailJson(event.detail),
      actor_id: event.actorId,
      dedupe_key: event.dedupeKey ?? null,
      created_at: event.at.toISOString(),
    }));
    const result = await trx
      .insertInto('petition_events')
      .values(rows)
      .onConflict((oc) => oc.columns(['petition_id', 'dedupe_key']).doNothing())
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

export function recordPetitionEvent(trx: Db, event: NewPetitionEvent): Promise<number> {
  return recordPetitionEvents(trx, [event]);
}

/** "Reached 10 signatures", once per petition whatever the signatures do afterwards. */
export function thresholdEvent(petitionId: number, threshold: 10 | 20, at: Date): NewPetitionEvent {
  return { petitionId, detail: { kind: 'threshold_reached', threshold }, actorId: null, at, dedupeKey: `threshold:${threshold}` };
}

const insertEventRow = preparedQuery(
  ['petitionId', 'kind', 'audience', 'detail', 'dedupeKey', 'createdAt'],
  (db, p: { petitionId: number; kind: string; audience: string; detail: string; dedupeKey: string | null; createdAt: string }) =>
    db
      .insertInto('petition_events')
      .values({ petition_id: p.petitionId, kind: p.kind, audience: p.audience, detail: p.detail, dedupe_key: p.dedupeKey, created_at: p.createdAt })
      .onConflict((oc) => oc.columns(['petition_id', 'dedupe_key']).doNothing()),
);

/**
 * SQLite's signing batch (petitions/signing.ts) runs synchronously on the direct connection: the
 * same insert, inside that transaction. SQLite has one writer, so ids are in commit order already.
 */
export function recordServerEventInDirectTransaction(db: Kysely<Database>, event: NewPetitionEvent): void {
  insertEventRow.inDirectTransaction(db, {
    petitionId: event.petitionId,
    kind: event.detail.kind,
    audience: eventAudience(event.detail.kind),
    detail: detailJson(event.detail),
    dedupeKey: event.dedupeKey ?? null,
    createdAt: event.at.toISOString(),
  });
}

/** The newest event id (0 when there is none): what a reader compares with its cursor. */
export async function latestEventId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('petition_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export interface EventBatch {
  events: StoredPetitionEvent[];
  /** The id to read after next time: the last row read, readable or not (`afterId` when none). */
  cursor: number;
}

/**
 * Up to `limit` events after `afterId`, oldest first: a background reader's next batch. A row this
 * release cannot read (a kind from a newer release) is skipped, and the cursor still moves past it.
 */
export async function readEventsAfter(db: Db, afterId: number, limit: number): Promise<EventBatch> {
  const rows = await db
    .selectFrom('petition_events')
    .select(['id', 'petition_id', 'kind', 'audience', 'detail', 'actor_id', 'created_at'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  const events: StoredPetitionEvent[] = [];
  let cursor = afterId;
  for (const row of rows) {
    cursor = row.id;
    const detail = parseDetail(row.kind, row.detail);
    if (!detail) continue;
    events.push({
      id: row.id,
      petitionId: row.petition_id,
      detail,
      audience: row.audience as EventAudience,
      actorId: row.actor_id,
      at: row.created_at,
    });
  }
  return { events, cursor };
}
