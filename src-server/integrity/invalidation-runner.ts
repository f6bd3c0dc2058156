/**
 * Runs invalidation and restore jobs in the background (docs/integrity.md#how-a-job-runs).
 *
 * - One job at a time across all nodes: the oldest unfinished one. A node takes it with a lease
 *   (owner and expiry on the job row) and renews the lease with every chunk; another node may take
 *   the job over only once the lease has expired, so a node that dies (SIGKILL, power) holds it up
 *   for at most the lease (INTEGRITY_JOB_LEASE_MS).
 * - Resumable: each chunk is one transaction that moves its signatures, updates the petitions' counts
 *   and statuses, and advances the job's cursor and progress together. A chunk that did not commit
 *   did nothing; one that did is never repeated, so a job resumed elsewhere finishes exactly once.
 * - Fenced: a chunk first re-reads the job (locked on PostgreSQL) and stops if its node no longer
 *   owns it, so a node that paused past its lease cannot write beside the one that took over.
 * - Cancellable: the cancel request sets a flag; the next chunk stops the job instead of working.
 * - Gentle: chunks are sized to take about CHUNK_TARGET_MS, and the runner rests between them, so
 *   signing goes on meanwhile with little extra wait.
 * - Audited: starting, resuming on another node, finishing and stopping after a cancel each write
 *   an audit entry in the same transaction, in the name of the staff member who asked.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { StoredCriteriaSchema, type InvalidationJobKind } from '../../src-shared/domain/integrity-schemas.ts';
import { AUDIT_ACTIONS, type AuditAction } from '../../src-shared/domain/audit-actions.ts';
import type { AppContext } from '../context.ts';
import type { Database, InvalidationJobRow } from '../db/schema.ts';
import { resolveCriteria, type ResolvedCriteria } from './invalidation-criteria.ts';
import { countMatching } from './invalidation-preview.ts';
import { isJobUnfinished } from '../../src-shared/rules/signature-integrity.ts';
import { JOB_STATES, toInvalidationJob, UNFINISHED_STATES } from './invalidation-jobs.ts';
import {
  firstInvalidationCursor,
  invalidateChunk,
  invalidatedCount,
  restoreChunk,
  type InvalidationCursor,
  type MoveScope,
  type RestoreCursor,
} from './signature-moves.ts';

export const JOB_POLL_MS = 1_000;
/**
 * Chunks are sized to take about this long each, whatever the machine. SQLite: a chunk holds the one
 * writer, so every signature waits for it; short chunks, and a rest as long as the chunk after each
 * (signing gets at least half the time). PostgreSQL: a chunk locks only its petition's row, so only
 * signing batches that include that petition wait; other petitions' signing meets the chunk only as
 * load on the machine. A chunk costs a dozen round trips whatever its size, and on a busy node each
 * waits its turn on the event loop, so chunks are long (measured: 20 or 500 rows cost the same
 * 60-250 ms on a loaded 2-core machine) and the rest a quarter of the chunk.
 * The size grows while chunks are quicker than half the target and shrinks when one takes longer.
 */
export const CHUNK_TARGET_MS = { sqlite: 10, postgres: 400 } as const;
const REST_PER_CHUNK_MS = { sqlite: 1, postgres: 0.25 } as const;
/**
 * A chunk writes the signatures it moves into invalidated_signatures in one statement, binding this
 * many values per row, and each engine caps a statement's values: PostgreSQL counts them in 16 bits
 * (65,535; past it: "bind message has N parameter formats but 0 parameters", seen at 10,125 rows),
 * SQLite at SQLITE_MAX_VARIABLE_NUMBER (32,766; past it: "too many SQL variables", seen at 5,000 rows).
 */
const VALUES_PER_MOVED_SIGNATURE = 7;
const MAX_STATEMENT_VALUES = { sqlite: 32_766, postgres: 65_535 } as const;
export const CHUNK_SIZE_LIMITS = {
  first: { sqlite: 200, postgres: 2_000 },
  min: { sqlite: 20, postgres: 200 },
  max: {
    sqlite: Math.floor(MAX_STATEMENT_VALUES.sqlite / VALUES_PER_MOVED_SIGNATURE),
    postgres: Math.floor(MAX_STATEMENT_VALUES.postgres / VALUES_PER_MOVED_SIGNATURE),
  },
} as const;
/** The least rest between chunks. */
export const CHUNK_PAUSE_MS = 2;

export type RunnerContext = Pick<AppContext, 'db' | 'dialect' | 'locks' | 'signatureCounts' | 'now' | 'config'>;

export interface RunnerOptions {
  /** This node's name in the lease; a fresh one per process by default. */
  owner?: string;
  leaseMs?: number;
  pollMs?: number;
  /** A fixed chunk size instead of the adaptive one (tests). */
  chunkSize?: number;
  /** The least rest between chunks. */
  pauseMs?: number;
  onError?: (error: unknown) => void;
}

export interface InvalidationRunner {
  start(): void;
  /** Asks for a pass soon (a job was requested or cancelled). */
  nudge(): void;
  stop(): Promise<void>;
  /** Works until no job is left that this node may run; for tests and the benchmark. */
  runUntilIdle(): Promise<void>;
  readonly owner: string;
}

class LeaseLost extends Error {}

type Cursor = InvalidationCursor | RestoreCursor | null;

function readCursor(row: InvalidationJobRow): Cursor {
  return row.cursor === null ? null : (JSON.parse(row.cursor) as Cursor);
}

function criteriaOf(row: InvalidationJobRow): ResolvedCriteria {
  return resolveCriteria(StoredCriteriaSchema.parse(JSON.parse(row.criteria ?? 'null')), new Date(row.requested_at));
}

/** An audit entry for a step the runner took on the requester's behalf (the role they held when asking). */
async function auditStep(trx: Transaction<Database>, job: InvalidationJobRow, action: AuditAction, details: Record<string, unknown>, at: Date) {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: job.requested_by,
      actor_role: job.requested_by_role,
      action,
      target_type: 'invalidation',
      target_id: String(job.id),
      before: null,
      after: JSON.stringify({ ...toInvalidationJob(job), ...details }),
      at: at.toISOString(),
    })
    .execute();
}

export function createInvalidationRunner(context: RunnerContext, options: RunnerOptions = {}): InvalidationRunner {
  const owner = options.owner ?? `node-${randomUUID()}`;
  const leaseMs = options.leaseMs ?? context.config.integrity.jobLeaseMs;
  const pollMs = options.pollMs ?? JOB_POLL_MS;
  const pauseMs = options.pauseMs ?? CHUNK_PAUSE_MS;
  let chunkSize = options.chunkSize ?? CHUNK_SIZE_LIMITS.first[context.dialect];
  let lastChunkMs = 0;
  const targetMs = CHUNK_TARGET_MS[context.dialect];

  /** Adapts the next chunk's size to how long this one took (unless the size is fixed). */
  function tune(elapsedMs: number, moved: number): void {
    lastChunkMs = elapsedMs;
    if (options.chunkSize !== undefined || moved < chunkSize) return;
    if (elapsedMs < targetMs / 2) chunkSize = Math.min(CHUNK_SIZE_LIMITS.max[context.dialect], Math.ceil(chunkSize * 1.5));
    else if (elapsedMs > targetMs) chunkSize = Math.max(CHUNK_SIZE_LIMITS.min[context.dialect], Math.floor(chunkSize * 0.6));
  }
  const postgres = context.dialect === 'postgres';
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopping = false;

  const leaseEnd = (now: Date) => new Date(now.getTime() + leaseMs).toISOString();

  async function readJob(trx: Transaction<Database>, id: number): Promise<InvalidationJobRow | undefined> {
    const query = trx.selectFrom('invalidation_jobs').selectAll().where('id', '=', id);
    return postgres ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
  }

  /** Takes the oldest unfinished job if no other node holds it; starts it if it is new. */
  async function claim(): Promise<InvalidationJobRow | null> {
    return context.db.transaction().execute(async (trx) => {
      let pick = trx.selectFrom('invalidation_jobs').selectAll().where('state', 'in', UNFINISHED_STATES).orderBy('id').limit(1);
      if (postgres) pick = pick.forUpdate();
      const job = await pick.executeTakeFirst();
      if (!job) return null;
      const now = context.now();
      const heldElsewhere = job.lease_owner !== null && job.lease_owner !== owner;
      if (heldElsewhere && job.lease_until !== null && job.lease_until > now.toISOString()) return null;
      const stamp = now.toISOString();
      let claimed: InvalidationJobRow;
      if (job.state === JOB_STATES.queued) {
        const kind = job.kind as InvalidationJobKind;
        const total =
          kind === 'invalidate' ? (await countMatching(trx, criteriaOf(job))).matching : await invalidatedCount(trx, job.restores_job_id ?? 0);
        const cursor: Cursor = kind === 'invalidate' ? await firstInvalidationCursor({ trx }, criteriaOf(job)) : { lastPetitionId: null };
        claimed = await trx
          .updateTable('invalidation_jobs')
          .set({ state: JOB_STATES.running, started_at: stamp, total, cursor: JSON.stringify(cursor), lease_owner: owner, lease_until: leaseEnd(now), updated_at: stamp })
          .where('id', '=', job.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await auditStep(trx, claimed, AUDIT_ACTIONS.jobStarted, {}, now);
      } else {
        claimed = await trx
          .updateTable('invalidation_jobs')
          .set({ lease_owner: owner, lease_until: leaseEnd(now), updated_at: stamp })
          .where('id', '=', job.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        // Another node held it and stopped renewing: it died or hung. Its committed chunks stand.
        if (heldElsewhere) await auditStep(trx, claimed, AUDIT_ACTIONS.jobResumed, { previousOwner: job.lease_owner }, now);
      }
      return claimed;
    });
  }

  /** One chunk of the job, in one transaction; false when the job is over (finished, stopped, or lost). */
  async function chunk(jobId: number): Promise<boolean> {
    const undo: (() => void)[] = [];
    const started = performance.now();
    let moved = 0;
    try {
      const more = await context.db.transaction().execute(async (trx) => {
        const job = await readJob(trx, jobId);
        if (!job || job.lease_owner !== owner || !isJobUnfinished(job)) throw new LeaseLost();
        const now = context.now();
        const stamp = now.toISOString();
        if (job.cancel_requested === 1) {
          const stopped = await trx
            .updateTable('invalidation_jobs')
            .set({ state: JOB_STATES.cancelled, finished_at: stamp, lease_owner: null, lease_until: null, updated_at: stamp })
            .where('id', '=', job.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          await auditStep(trx, stopped, AUDIT_ACTIONS.jobCancelled, {}, now);
          return false;
        }
        const scope: MoveScope = { trx, dialect: context.dialect, counts: context.signatureCounts, undo, now };
        const cursor = readCursor(job);
        const result =
          job.kind === 'invalidate'
            ? cursor
              ? await invalidateChunk(scope, job, criteriaOf(job), cursor as InvalidationCursor, chunkSize)
              : { moved: 0, petitionsChanged: 0, next: null }
            : await restoreChunk(scope, job.restores_job_id ?? 0, (cursor as RestoreCursor | null) ?? { lastPetitionId: null }, chunkSize);
        const done = result.next === null;
        moved = result.moved;
        const updated = await trx
          .updateTable('invalidation_jobs')
          .set((eb) => ({
            processed: eb('processed', '+', result.moved),
            petitions_changed: eb('petitions_changed', '+', result.petitionsChanged),
            cursor: JSON.stringify(result.next),
            updated_at: stamp,
            last_error: null,
            ...(done
              ? { state: JOB_STATES.finished, finished_at: stamp, lease_owner: null, lease_until: null }
              : { lease_until: leaseEnd(now) }),
          }))
          .where('id', '=', job.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (done) await auditStep(trx, updated, AUDIT_ACTIONS.jobFinished, {}, now);
        return !done;
      });
      tune(performance.now() - started, moved);
      return more;
    } catch (error) {
      // Rolled back: the counts this chunk dropped from memory are pending again.
      for (const step of undo.reverse()) step();
      if (error instanceof LeaseLost) return false;
      throw error;
    }
  }

  async function recordError(jobId: number, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await context.db
      .updateTable('invalidation_jobs')
      .set({ last_error: message.slice(0, 500), updated_at: context.now().toISOString() })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute()
      .catch(() => {});
  }

  const pause = () => new Promise((resolve) => setTimeout(resolve, Math.max(pauseMs, lastChunkMs * REST_PER_CHUNK_MS[context.dialect])));

  /** Works on jobs until none is left for this node, or the runner stops. */
  async function pass(): Promise<void> {
    while (!stopping) {
      const job = await claim();
      if (!job) return;
      try {
        while (!stopping && (await chunk(job.id))) await pause();
      } catch (error) {
        // A failed chunk changed nothing; the lease runs out and the job is tried again (here or elsewhere).
        await recordError(job.id, error);
        throw error;
      }
    }
  }

  function schedule(): void {
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          schedule();
        }
      });
  }

  return {
    owner,
    start() {
      if (timer) return;
      stopping = false;
      timer = setInterval(schedule, pollMs);
      timer.unref();
      schedule();
    },
    nudge() {
      if (timer) setImmediate(schedule);
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
    async runUntilIdle() {
      await running;
      await pass();
    },
  };
}
