/**
 * Stored signature counts, written behind on large sites.
 *
 * The signature rows are the truth; `petitions.signature_count` is a denormalised copy that the
 * list's sort indexes are built on. Moving it by one on every signature rewrites the petition row
 * (and its list indexes' entries when its band moves), which costs as much as the signature insert
 * itself. So, as the UK service does ("never +1 on the hot row"), on a large site a signature
 * that crosses no threshold and leaves the first signers as they are (signing.ts) only adds to an
 * in-memory delta, and the deltas are written in batches
 * every COUNT_FLUSH_INTERVAL_MS, a few hundred rows per transaction so requests keep flowing between them.
 *
 * - Within this process every reply is exact: readers add the pending delta (`live`).
 * - A signature that changes the automatic status writes the exact count and the status at once.
 * - Small sites write every count at once, so their lists and stats are exact.
 * - Crash safety: while deltas are pending, a flag row says so (written in the same transaction as
 *   the first deferred signature). A server that starts and finds it set recounts from the rows.
 * - Code that decides with stored counts in SQL (closure) calls `settle()` first.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { preparedQuery } from '../db/prepared-query.ts';
import { directSqlite, runDirectTransaction } from '../db/direct-sqlite.ts';
import type { Database } from '../db/schema.ts';
import type { SiteScale } from './site-scale.ts';

export const COUNT_FLUSH_INTERVAL_MS = 10_000;
/** Rows per flush transaction: short enough that a waiting request barely notices. */
const FLUSH_CHUNK = 250;
const PENDING_FLAG_KEY = 'signature_counts_pending';

const addToCount = preparedQuery(['id', 'delta'], (db, p: { id: number; delta: number }) =>
  db
    .updateTable('petitions')
    .set((eb) => ({ signature_count: eb('signature_count', '+', p.delta) }))
    .where('id', '=', p.id),
);

const writePendingFlag = preparedQuery(['value', 'updatedAt'], (db, p: { value: string; updatedAt: string }) =>
  db
    .insertInto('site_settings')
    .values({ key: PENDING_FLAG_KEY, value: p.value, updated_at: p.updatedAt })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at') }))),
);

export interface CountFlushStats {
  /** Petitions whose count is pending right now. */
  pendingPetitions: number;
  flushes: number;
  rowsWritten: number;
  millisecondsSpent: number;
}

export interface SignatureCounts {
  /** The count to show: the stored count plus what this process has not written yet. */
  live(petitionId: number, stored: number): number;
  /** The row with its live count in place of the stored one. */
  withLive<T extends { id: number; signature_count: number }>(row: T): T;
  /** Whether a signature that crosses no threshold may leave its count pending. */
  shouldDefer(): boolean;
  /**
   * Inside the signing transaction: records a deferred change, or (`written`) that the exact count was
   * just stored. Returns an undo for when the transaction rolls back.
   */
  record(petitionId: number, change: { deferredDelta: number } | { written: true }, stamp: string): () => void;
  /** Writes every pending delta. */
  settle(): Promise<void>;
  /** Recounts from the signature rows if an earlier process stopped with deltas pending. */
  recover(): Promise<void>;
  /** Flushes every interval; a failed flush keeps its deltas for the next one and is reported. */
  start(onError: (error: unknown) => void): void;
  /** Stops the timer and writes what is pending. */
  stop(): Promise<void>;
  stats(): CountFlushStats;
}

export function createSignatureCounts(deps: { db: Kysely<Database>; scale: SiteScale; now: () => Date; flushIntervalMs?: number }): SignatureCounts {
  const { db, scale, now } = deps;
  const pending = new Map<number, number>();
  /** Whether the stored flag says deltas may be pending. */
  let flagStored = false;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;
  const stats = { flushes: 0, rowsWritten: 0, millisecondsSpent: 0 };

  /**
   * Inside a transaction: writes up to FLUSH_CHUNK deltas, and clears the flag if nothing is left.
   * Returns the undo for the in-memory side, for when the transaction does not commit.
   */
  function writeChunk(): () => void {
    const taken: [number, number][] = [];
    for (const entry of pending) {
      taken.push(entry);
      if (taken.length === FLUSH_CHUNK) break;
    }
    for (const [id, delta] of taken) if (delta !== 0) addToCount.inDirectTransaction(db, { id, delta });
    const clearsFlag = flagStored && taken.length === pending.size;
    if (clearsFlag) writePendingFlag.inDirectTransaction(db, { value: 'false', updatedAt: now().toISOString() });
    for (const [id] of taken) pending.delete(id);
    if (clearsFlag) flagStored = false;
    stats.rowsWritten += taken.length;
    return () => {
      for (const [id, delta] of taken) pending.set(id, (pending.get(id) ?? 0) + delta);
      if (clearsFlag) flagStored = true;
      stats.rowsWritten -= taken.length;
    };
  }

  async function flushAll(): Promise<void> {
    const direct = directSqlite(db);
    if (!direct) return;
    stats.flushes += 1;
    while (pending.size) {
      // Between chunks, requests (and any Kysely transaction) get their turn.
      await new Promise((resolve) => setImmediate(resolve));
      const started = performance.now();
      let undo = () => {};
      try {
        await runDirectTransaction(db, direct, () => {
          if (pending.size) undo = writeChunk();
        });
      } catch (error) {
        undo();
        throw error;
      } finally {
        stats.millisecondsSpent += performance.now() - started;
      }
    }
  }

  function settle(): Promise<void> {
    // One flush at a time; a settle that arrives during a flush waits for it and then runs again.
    const run = (flushing ?? Promise.resolve()).then(flushAll);
    const tracked = run.finally(() => {
      if (flushing === tracked) flushing = null;
    });
    flushing = tracked;
    return tracked;
  }

  return {
    live(petitionId, stored) {
      return stored + (pending.get(petitionId) ?? 0);
    },

    withLive(row) {
      const delta = pending.get(row.id);
      return delta ? { ...row, signature_count: row.signature_count + delta } : row;
    },

    shouldDefer() {
      return scale.isLarge();
    },

    record(petitionId, change, stamp) {
      const before = pending.get(petitionId);
      const flagBefore = flagStored;
      if ('written' in change) {
        pending.delete(petitionId);
      } else {
        pending.set(petitionId, (before ?? 0) + change.deferredDelta);
        if (!flagStored) {
          writePendingFlag.inDirectTransaction(db, { value: 'true', updatedAt: stamp });
          flagStored = true;
        }
      }
      return () => {
        if (before === undefined) pending.delete(petitionId);
        else pending.set(petitionId, before);
        flagStored = flagBefore;
      };
    },

    settle,

    async recover() {
      const flag = await db.selectFrom('site_settings').select('value').where('key', '=', PENDING_FLAG_KEY).executeTakeFirst();
      if (flag?.value !== 'true') return;
      await db.transaction().execute(async (trx) => {
        await sql`UPDATE petitions SET signature_count = (SELECT count(*) FROM signatures WHERE signatures.petition_id = petitions.id)`.execute(trx);
        await trx.updateTable('site_settings').set({ value: 'false', updated_at: now().toISOString() }).where('key', '=', PENDING_FLAG_KEY).execute();
      });
    },

    start(onError) {
      if (timer) return;
      timer = setInterval(() => void settle().catch(onError), deps.flushIntervalMs ?? COUNT_FLUSH_INTERVAL_MS);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await settle();
    },

    stats: () => ({ ...stats, pendingPetitions: pending.size }),
  };
}
