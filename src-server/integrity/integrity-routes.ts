/**
 * Signature integrity API, for the administrator only (docs/integrity.md): the unusual-signing
 * figures, the invalidation preview, and requesting, following, cancelling and restoring
 * invalidations. Requests are staff writes (audited, Idempotency-Key); the work itself is done by
 * the background runner (invalidation-runner.ts), so every request answers at once.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import {
  InvalidationJobListSchema,
  InvalidationJobParams,
  InvalidationJobSchema,
  InvalidationPreviewQuery,
  InvalidationPreviewSchema,
  InvalidationRequestBody,
  RestoreRequestBody,
  UnusualSigningSchema,
} from '../../src-shared/domain/integrity-schemas.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { problems } from '../http/route-contract.ts';
import { SIGNATURE_INTEGRITY } from '../staff/staff-access.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE } from '../staff/route-schemas.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { isJobUnfinished } from '../../src-shared/rules/signature-integrity.ts';
import { createJob, findJob, JOB_STATES, listJobs, toInvalidationJob } from './invalidation-jobs.ts';
import { previewInvalidation } from './invalidation-preview.ts';
import { readUnusualSigning } from './unusual-signing.ts';

export const INTEGRITY_PATHS = {
  unusualSigning: '/api/integrity/unusual-signing',
  invalidations: '/api/integrity/invalidations',
  preview: '/api/integrity/invalidations/preview',
} as const;

export const INTEGRITY_REFUSALS = {
  notFound: 'Invalidation not found',
  alreadyOver: 'This job has already stopped; there is nothing to cancel',
  restoreOfRestore: 'A restore cannot itself be restored; request a new invalidation instead',
  stillRunning: 'This invalidation is still running: cancel it (or wait for it to finish) before restoring it',
  alreadyRestored: 'These signatures are already restored (or being restored)',
} as const;

async function lockedJob(trx: Transaction<Database>, id: number, postgres: boolean) {
  const query = trx.selectFrom('invalidation_jobs').selectAll().where('id', '=', id);
  const row = postgres ? await query.forUpdate().executeTakeFirst() : await query.executeTakeFirst();
  if (!row) throw new HttpError(404, INTEGRITY_REFUSALS.notFound);
  return row;
}

export function registerIntegrityRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const postgres = context.dialect === 'postgres';

  typed.get(
    INTEGRITY_PATHS.unusualSigning,
    {
      config: { access: SIGNATURE_INTEGRITY },
      schema: {
        operationId: 'getUnusualSigning',
        tags: [DOC_TAGS.integrity],
        summary: 'Unusual signing as it happens (administrator)',
        description:
          'Petitions that raised an alert today (UK day), then those signed most in the last hour: signatures in the last hour ' +
          'against the earlier hourly rate, the share from accounts younger than 30 days, the largest burst within a minute, and ' +
          'how many of the signatures that reached 10 and 20 came from young accounts; the rules tripped now and the alerts raised ' +
          '(each rule raises one staff chat message per petition and day). The figures lag the clock by a few seconds (`countedUpTo`).',
        response: { 200: UnusualSigningSchema, ...problems(401, 403) },
      },
    },
    async () => {
      return readUnusualSigning(context);
    },
  );

  typed.get(
    INTEGRITY_PATHS.preview,
    {
      config: { access: SIGNATURE_INTEGRITY },
      schema: {
        operationId: 'previewInvalidation',
        tags: [DOC_TAGS.integrity],
        summary: 'Preview an invalidation: how many signatures match, and a sample (administrator)',
        description:
          'Changes nothing. Criteria combine with "and": one petition (`petition`; absent for all), a time window (`signedFrom` ' +
          'inclusive, `signedTo` exclusive, ISO 8601 with a zone), accounts younger than N days now (`accountYoungerThanDays`), ' +
          'user ids (`userIds`, comma-separated). Only signatures made until now match. Lists the most affected petitions with ' +
          'their count and status afterwards, and the newest matching signatures.',
        querystring: InvalidationPreviewQuery,
        response: { 200: InvalidationPreviewSchema, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      return previewInvalidation(context, request.query);
    },
  );

  typed.get(
    INTEGRITY_PATHS.invalidations,
    {
      config: { access: SIGNATURE_INTEGRITY },
      schema: {
        operationId: 'listInvalidations',
        tags: [DOC_TAGS.integrity],
        summary: 'Invalidations and restores, newest first, with their progress (administrator)',
        response: { 200: InvalidationJobListSchema, ...problems(401, 403) },
      },
    },
    async () => {
      return { items: (await listJobs(context.db)).map(toInvalidationJob) };
    },
  );

  typed.get(
    `${INTEGRITY_PATHS.invalidations}/:id`,
    {
      config: { access: SIGNATURE_INTEGRITY },
      schema: {
        operationId: 'getInvalidation',
        tags: [DOC_TAGS.integrity],
        summary: 'One invalidation or restore with its progress (administrator)',
        params: InvalidationJobParams,
        response: { 200: InvalidationJobSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const row = await findJob(context.db, request.params.id);
      if (!row) throw new HttpError(404, INTEGRITY_REFUSALS.notFound);
      return toInvalidationJob(row);
    },
  );

  typed.post(
    INTEGRITY_PATHS.invalidations,
    {
      config: { access: SIGNATURE_INTEGRITY },
      schema: {
        operationId: 'requestInvalidation',
        tags: [DOC_TAGS.integrity],
        summary: 'Invalidate the signatures that match the criteria, in the background (administrator)',
        description:
          'Queues a job (202) that moves the matching signatures out of every count, one chunk at a time, on one node; follow it with ' +
          '`GET /api/integrity/invalidations/{id}`. The criteria are those of the preview; "younger than N days" and "signed until" ' +
          `are taken at the moment of this request. Invalidated signatures are kept and can be restored. ${IDEMPOTENCY_NOTE}`,
        body: InvalidationRequestBody,
        response: { 202: InvalidationJobSchema, ...problems(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(SIGNATURE_INTEGRITY);
      const job = await runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const row = await createJob(trx, { kind: 'invalidate', criteria: request.body.criteria, restoresJobId: null, reason: request.body.reason, requester: viewer.user, now });
        const after = toInvalidationJob(row);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.invalidationRequest,
          targetType: 'invalidation',
          targetId: row.id,
          before: null,
          after: { ...after, previewedMatching: request.body.previewedMatching ?? null },
          at: now,
          madeAt,
        });
        return { statusCode: 202, body: after };
      });
      context.integrity.runner.nudge();
      return job;
    },
  );

  typed.post(
    `${INTEGRITY_PATHS.invalidations}/:id/cancel`,
    {
      config: { access: SIGNATURE_INTEGRITY },
      schema: {
        operationId: 'cancelInvalidation',
        tags: [DOC_TAGS.integrity],
        summary: 'Cancel an invalidation or restore that has not finished (administrator)',
        description:
          'A queued job stops at once; a running one stops before its next chunk (what it already moved stays moved, and can be ' +
          `restored). 409 once the job has stopped. ${IDEMPOTENCY_NOTE}`,
        params: InvalidationJobParams,
        response: { 200: InvalidationJobSchema, ...problems(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(SIGNATURE_INTEGRITY);
      const job = await runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const before = await lockedJob(trx, request.params.id, postgres);
        if (!isJobUnfinished(before)) throw new HttpError(409, INTEGRITY_REFUSALS.alreadyOver);
        const stamp = now.toISOString();
        // Nobody works on a queued job yet: it stops here. A running one is stopped by its runner.
        const changes =
          before.state === JOB_STATES.queued
            ? { cancel_requested: 1, state: JOB_STATES.cancelled, finished_at: stamp, updated_at: stamp }
            : { cancel_requested: 1, updated_at: stamp };
        const row = await trx.updateTable('invalidation_jobs').set(changes).where('id', '=', before.id).returningAll().executeTakeFirstOrThrow();
        const after = toInvalidationJob(row);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.invalidationCancel,
          targetType: 'invalidation',
          targetId: row.id,
          before: toInvalidationJob(before),
          after,
          at: now,
          madeAt,
        });
        return { body: after };
      });
      context.integrity.runner.nudge();
      return job;
    },
  );

  typed.post(
    `${INTEGRITY_PATHS.invalidations}/:id/restore`,
    {
      config: { access: SIGNATURE_INTEGRITY },
      schema: {
        operationId: 'restoreInvalidation',
        tags: [DOC_TAGS.integrity],
        summary: 'Restore the signatures an invalidation took out, in the background (administrator)',
        description:
          'Queues a restore job (202) that puts every signature the invalidation still holds back, as it was (same time, same ' +
          'place among the first signers); counts and statuses follow. The invalidation must have stopped (finished, cancelled ' +
          `or failed) and not been restored already (409). ${IDEMPOTENCY_NOTE}`,
        params: InvalidationJobParams,
        body: RestoreRequestBody,
        response: { 202: InvalidationJobSchema, ...problems(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(SIGNATURE_INTEGRITY);
      const job = await runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const invalidation = await lockedJob(trx, request.params.id, postgres);
        if (invalidation.kind !== 'invalidate') throw new HttpError(409, INTEGRITY_REFUSALS.restoreOfRestore);
        if (isJobUnfinished(invalidation)) throw new HttpError(409, INTEGRITY_REFUSALS.stillRunning);
        if (invalidation.restored_by_job_id !== null) throw new HttpError(409, INTEGRITY_REFUSALS.alreadyRestored);
        const row = await createJob(trx, { kind: 'restore', criteria: null, restoresJobId: invalidation.id, reason: request.body.reason, requester: viewer.user, now });
        await trx
          .updateTable('invalidation_jobs')
          .set({ restored_by_job_id: row.id, updated_at: now.toISOString() })
          .where('id', '=', invalidation.id)
          .execute();
        const after = toInvalidationJob(row);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.restoreRequest,
          targetType: 'invalidation',
          targetId: invalidation.id,
          before: toInvalidationJob(invalidation),
          after,
          at: now,
          madeAt,
        });
        return { statusCode: 202, body: after };
      });
      context.integrity.runner.nudge();
      return job;
    },
  );
}
