/**
 * Invalidation and restore jobs as stored (migration 0017) and as the API shows them. A job is
 * created by a staff request and then belongs to the runner (invalidation-runner.ts).
 */
import {
  StoredCriteriaSchema,
  type InvalidationCriteria,
  type InvalidationJob,
  type InvalidationJobKind,
  type InvalidationJobState,
} from '../../src-shared/domain/integrity-schemas.ts';
import { roleLabel, type RoleLabelUser } from '../../src-shared/rules/roles.ts';
import type { Db, InvalidationJobRow } from '../db/schema.ts';

export const JOB_STATES = {
  queued: 'queued',
  running: 'running',
  finished: 'finished',
  cancelled: 'cancelled',
  failed: 'failed',
} as const satisfies Record<InvalidationJobState, InvalidationJobState>;

/** Jobs the runner still has to work on, oldest first: one runs at a time across all nodes. */
export const UNFINISHED_STATES: readonly InvalidationJobState[] = [JOB_STATES.queued, JOB_STATES.running];

export const JOB_LIST_LIMIT = 50;

export function toInvalidationJob(row: InvalidationJobRow): InvalidationJob {
  return {
    id: row.id,
    kind: row.kind as InvalidationJobKind,
    state: row.state as InvalidationJobState,
    criteria: row.criteria === null ? null : StoredCriteriaSchema.parse(JSON.parse(row.criteria)),
    restoresJobId: row.restores_job_id,
    restoredByJobId: row.restored_by_job_id,
    reason: row.reason,
    requestedBy: row.requested_by,
    requestedByRole: row.requested_by_role,
    requestedAt: row.requested_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    total: row.total,
    processed: row.processed,
    petitionsChanged: row.petitions_changed,
    cancelRequested: row.cancel_requested === 1,
    lastError: row.last_error,
  };
}

export interface NewJob {
  kind: InvalidationJobKind;
  criteria: InvalidationCriteria | null;
  restoresJobId: number | null;
  reason: string;
  requester: RoleLabelUser & { id: string };
  now: Date;
}

export async function createJob(db: Db, job: NewJob): Promise<InvalidationJobRow> {
  const stamp = job.now.toISOString();
  return db
    .insertInto('invalidation_jobs')
    .values({
      kind: job.kind,
      criteria: job.criteria === null ? null : JSON.stringify(job.criteria),
      restores_job_id: job.restoresJobId,
      reason: job.reason,
      requested_by: job.requester.id,
      // The role is recorded as held at the request, as audit entries record it.
      requested_by_role: roleLabel(job.requester),
      requested_at: stamp,
      state: JOB_STATES.queued,
      total: 0,
      processed: 0,
      petitions_changed: 0,
      cursor: null,
      cancel_requested: 0,
      lease_owner: null,
      lease_until: null,
      started_at: null,
      finished_at: null,
      restored_by_job_id: null,
      last_error: null,
      updated_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findJob(db: Db, id: number): Promise<InvalidationJobRow | undefined> {
  return db.selectFrom('invalidation_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listJobs(db: Db, limit = JOB_LIST_LIMIT): Promise<InvalidationJobRow[]> {
  return db.selectFrom('invalidation_jobs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

