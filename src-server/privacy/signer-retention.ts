/**
 * Signer retention (docs/privacy.md#signer-retention): the signers of a petition closed longer than
 * SIGNER_RETENTION_MONTHS are anonymised. Their signature rows stay (counts, recounts and the chart of
 * signatures over time do not move) with a random anonymous id each and their initials for a name
 * (anonymous-signers.ts); what else tied a member to that petition goes with them (see
 * `finishPetition`).
 *
 * How it runs, on any number of nodes:
 * - One node at a time holds a lease on the work, kept with its state in one site_settings row:
 *   the owner, until when, the cursor, when the last pass finished. A node claims it under a try-lock
 *   when nobody holds it (or the holder's lease lapsed) and a pass is due: an hour after the last
 *   finished, or at once when the last one was abandoned (a node killed mid-way).
 * - Resumable: petitions are taken in the order they closed, (closed_at, id), from the stored cursor;
 *   each batch is one transaction that anonymises up to a number of rows, moves the cursor past the
 *   petitions it finished and renews the lease. A row already anonymised is recognisable (its id has
 *   20 digits), so a batch that did not commit simply happens again and one that did is never
 *   repeated. A petition closed later than the cursor (even one reopened and closed again: closing
 *   stamps the present) is reached in its turn.
 * - Fenced: a batch re-reads the state (locked on PostgreSQL) and stops if its node no longer holds
 *   the lease, so a node that paused past its lease never writes beside the one that took over.
 * Each node looks every minute; a look that finds nothing to do costs a try-lock and a key read.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Database, Db } from '../db/schema.ts';
import { retentionCutoff } from '../feed/retention.ts';
import { initialsOf } from '../auth/initials-avatar.ts';
import { anonymiseSignatures, NOT_ANONYMOUS_MAX_LENGTH, newAnonymousUserId, refreshFirstSigners, type SignatureTable } from './anonymous-signers.ts';

export const SIGNER_RETENTION_CHECK_MS = 60_000;
export const SIGNER_RETENTION_INTERVAL_MS = 60 * 60_000;
export const SIGNER_RETENTION_LEASE_MS = 2 * 60_000;
/** Rows anonymised per transaction, and petitions looked at: a batch stays short on either engine. */
const BATCH_ROWS = 500;
const PETITIONS_PER_BATCH = 100;
/** Passes closer than this share an interval (timers on different nodes drift a little). */
const SAME_INTERVAL_SHARE = 0.8;
const STATE_KEY = 'signer_retention';

const StoredState = z.object({
  owner: z.string().nullable(),
  leaseUntil: z.string().nullable(),
  lastFinishedAt: z.string().nullable(),
  /** The last petition whose signers are all anonymised, in closing order. */
  cursor: z.object({ closedAt: z.string(), id: z.number().int() }).nullable(),
});
type RetentionState = z.infer<typeof StoredState>;

const EMPTY_STATE: RetentionState = { owner: null, leaseUntil: null, lastFinishedAt: null, cursor: null };

export interface RetentionPass {
  /** Signature rows anonymised (counted and invalidated ones). */
  anonymised: number;
  /** Petitions whose signers are now all anonymised. */
  petitions: number;
  /** False when the pass stopped early (maxBatches, or another node took the lease over). */
  finished: boolean;
}

export type RetentionContext = Pick<AppContext, 'db' | 'dialect' | 'locks' | 'now' | 'config'>;

export interface RetentionOptions {
  /** This node's name in the lease; a fresh one per process by default. */
  owner?: string;
  batchRows?: number;
  leaseMs?: number;
  intervalMs?: number;
}

export interface SignerRetention {
  /**
   * Claims the work and runs it to the end (or `maxBatches` batches, for tests of a pass cut short);
   * null when it is not due or another node holds it.
   */
  runPass(options?: { maxBatches?: number }): Promise<RetentionPass | null>;
  /** Stops after the batch in progress (the server closing) and waits for it; the lease lapses and any node continues. */
  stop(): Promise<void>;
}

async function readState(db: Db, forUpdate: boolean): Promise<RetentionState> {
  const query = db.selectFrom('site_settings').select('value').where('key', '=', STATE_KEY);
  const row = await (forUpdate ? query.forUpdate() : query).executeTakeFirst();
  if (!row) return EMPTY_STATE;
  // Storage is a boundary: a row this version cannot read starts the walk again (anonymising is idempotent).
  const parsed = StoredState.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : EMPTY_STATE;
}

async function writeState(db: Db, state: RetentionState, now: Date): Promise<void> {
  const value = JSON.stringify(state);
  const stamp = now.toISOString();
  await db
    .insertInto('site_settings')
    .values({ key: STATE_KEY, value, updated_at: stamp })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: stamp }))
    .execute();
}

/** Up to `limit` rows of one petition in `table` that still name their member. */
function namedRows(trx: Db, table: SignatureTable, petitionId: number, limit: number) {
  return trx
    .selectFrom(table)
    .select(['user_id', 'username', 'display_name'])
    .where('petition_id', '=', petitionId)
    .where(sql<number>`length(user_id)`, '<=', NOT_ANONYMOUS_MAX_LENGTH)
    .limit(limit)
    .execute();
}

/** What retention keeps of a signer's name: their initials. */
const initialsOnly = (row: { username: string; display_name: string }) => initialsOf(row.display_name || row.username);

/**
 * Once every signature of a petition is anonymised, the rest of what tied members to it goes:
 * the listed first signers are written again from the anonymised rows, members' mutes of it and
 * their one-by-one read marks of its events are deleted, and its reports stop naming their reporters.
 */
async function finishPetition(trx: Db, petitionId: number): Promise<void> {
  await refreshFirstSigners(trx, petitionId);
  await trx.deleteFrom('feed_mutes').where('petition_id', '=', petitionId).execute();
  await trx
    .deleteFrom('feed_reads')
    .where('event_id', 'in', (eb) => eb.selectFrom('petition_events').select('id').where('petition_id', '=', petitionId))
    .execute();
  const reports = await trx
    .selectFrom('petition_reports')
    .select('id')
    .where('petition_id', '=', petitionId)
    .where(sql<number>`length(reporter_id)`, '<=', NOT_ANONYMOUS_MAX_LENGTH)
    .execute();
  for (const report of reports) {
    await trx.updateTable('petition_reports').set({ reporter_id: newAnonymousUserId() }).where('id', '=', report.id).execute();
  }
}

export function createSignerRetention(context: RetentionContext, options: RetentionOptions = {}): SignerRetention {
  const owner = options.owner ?? randomUUID();
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const leaseMs = options.leaseMs ?? SIGNER_RETENTION_LEASE_MS;
  const intervalMs = options.intervalMs ?? SIGNER_RETENTION_INTERVAL_MS;
  const postgres = context.dialect === 'postgres';
  const leaseEnd = (now: Date) => new Date(now.getTime() + leaseMs).toISOString();
  let inFlight: Promise<RetentionPass | null> | null = null;
  let stopped = false;

  async function claim(): Promise<boolean> {
    const now = context.now();
    return context.db.transaction().execute(async (trx) => {
      if (!(await context.locks.tryLock(trx, 'signer-retention', ''))) return false;
      const state = await readState(trx, postgres);
      const stamp = now.toISOString();
      const held = state.owner !== null && state.owner !== owner && state.leaseUntil !== null && state.leaseUntil > stamp;
      if (held) return false;
      const abandoned = state.leaseUntil !== null;
      const recent = state.lastFinishedAt !== null && now.getTime() - Date.parse(state.lastFinishedAt) < intervalMs * SAME_INTERVAL_SHARE;
      if (recent && !abandoned) return false;
      await writeState(trx, { ...state, owner, leaseUntil: leaseEnd(now) }, now);
      return true;
    });
  }

  /** One transaction: returns the rows and petitions it finished, and whether work remains (null: the lease was lost). */
  async function batch(): Promise<{ anonymised: number; petitions: number; more: boolean } | null> {
    const now = context.now();
    const cutoff = retentionCutoff(now, context.config.signerRetentionMonths).toISOString();
    return context.db.transaction().execute(async (trx: Transaction<Database>) => {
      await context.locks.lock(trx, 'signer-retention', '');
      const state = await readState(trx, postgres);
      if (state.owner !== owner) return null;
      let cursor = state.cursor;
      let anonymised = 0;
      let petitions = 0;
      let more = true;
      for (let visited = 0; visited < PETITIONS_PER_BATCH && anonymised < batchRows; visited += 1) {
        let next = trx
          .selectFrom('petitions')
          .select(['id', 'closed_at'])
          .where('closed_at', 'is not', null)
          .where('closed_at', '<', cutoff)
          .where('status', '=', 'closed');
        if (cursor) {
          const after = cursor;
          next = next.where((eb) => eb.or([eb('closed_at', '>', after.closedAt), eb.and([eb('closed_at', '=', after.closedAt), eb('id', '>', after.id)])]));
        }
        const petition = await next.orderBy('closed_at').orderBy('id').limit(1).executeTakeFirst();
        if (!petition || petition.closed_at === null) {
          more = false;
          break;
        }
        if (postgres) await trx.selectFrom('petitions').select('id').where('id', '=', petition.id).forUpdate().execute();
        let complete = true;
        for (const table of ['signatures', 'invalidated_signatures'] as const) {
          const room = batchRows - anonymised;
          const rows = await namedRows(trx, table, petition.id, room);
          anonymised += await anonymiseSignatures(trx, context.dialect, table, petition.id, rows, initialsOnly);
          if (rows.length === room) {
            complete = false;
            break;
          }
        }
        if (!complete) break;
        await finishPetition(trx, petition.id);
        petitions += 1;
        cursor = { closedAt: petition.closed_at, id: petition.id };
      }
      await writeState(trx, { ...state, cursor, leaseUntil: leaseEnd(now) }, now);
      return { anonymised, petitions, more };
    });
  }

  /** Lets the lease go and records the pass as finished, unless another node holds it by now. */
  async function finish(): Promise<void> {
    const now = context.now();
    await context.db.transaction().execute(async (trx) => {
      await context.locks.lock(trx, 'signer-retention', '');
      const state = await readState(trx, postgres);
      if (state.owner !== owner) return;
      await writeState(trx, { ...state, owner: null, leaseUntil: null, lastFinishedAt: now.toISOString() }, now);
    });
  }

  async function pass(maxBatches: number): Promise<RetentionPass | null> {
    if (!(await claim())) return null;
    const total: RetentionPass = { anonymised: 0, petitions: 0, finished: false };
    for (let batches = 0; batches < maxBatches && !stopped; batches += 1) {
      const done = await batch();
      if (!done) return total;
      total.anonymised += done.anonymised;
      total.petitions += done.petitions;
      if (!done.more) {
        await finish();
        return { ...total, finished: true };
      }
    }
    return total;
  }

  return {
    runPass(runOptions = {}) {
      inFlight ??= pass(runOptions.maxBatches ?? Number.POSITIVE_INFINITY).finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    async stop() {
      stopped = true;
      await inFlight?.catch(() => undefined);
    },
  };
}

/** Looks every minute from the app's start to its close (background-work.ts calls it where background jobs run). */
export function startSignerRetention(app: FastifyInstance, retention: SignerRetention): void {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= retention
      .runPass()
      .then((done) => {
        if (done?.anonymised) app.log.info({ anonymised: done.anonymised, petitions: done.petitions }, 'anonymised the signers of petitions closed past retention');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'anonymising old signers failed; the next look continues'))
      .finally(() => {
        running = null;
      });
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, SIGNER_RETENTION_CHECK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await retention.stop();
    await running;
  });
}
