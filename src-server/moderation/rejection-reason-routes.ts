/**
 * The rejection reasons (docs/moderation.md#rejection-reasons): moderators read them to reject with
 * one; the administrator adds, edits and deletes them (a reason in use cannot be deleted: rejected
 * petitions show its text). Writes take Idempotency-Key like every staff write.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { RejectionReasonBody, RejectionReasonParams, RejectionReasonSchema } from '../../src-shared/domain/moderation-schemas.ts';
import { MessageSchema } from '../../src-shared/domain/schemas.ts';
import { MODERATION_ERRORS } from '../../src-shared/rules/moderation.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { HttpError } from '../http/problem.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE } from '../staff/route-schemas.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { MODERATORS, REJECTION_REASON_EDITORS } from './moderation-access.ts';
import {
  REJECTION_REASON_LOCK,
  countPetitionsRejectedWith,
  deleteRejectionReason,
  findRejectionReason,
  listRejectionReasons,
  saveRejectionReason,
} from './rejection-reasons.ts';

export const REJECTION_REASON_DELETED = 'Rejection reason deleted';

export function registerRejectionReasonRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/rejection-reasons',
    {
      config: { access: MODERATORS },
      schema: {
        operationId: 'listRejectionReasons',
        tags: [DOC_TAGS.moderation],
        summary: 'The rejection reasons (rank 7 and up, administrator)',
        description: 'In the order moderators choose from, each with how many petitions are rejected with it now.',
        response: { 200: z.array(RejectionReasonSchema), ...problems(401, 403, 503) },
      },
    },
    async () => listRejectionReasons(context.db),
  );

  typed.put(
    '/api/rejection-reasons/:code',
    {
      config: { access: REJECTION_REASON_EDITORS },
      schema: {
        operationId: 'saveRejectionReason',
        tags: [DOC_TAGS.moderation],
        summary: 'Add or edit a rejection reason (administrator)',
        description:
          '201 for a new reason (added last), 200 for an edit. Rejected petitions show the current text, so an edit changes ' +
          `their tombstones too; a hidden reason keeps its petitions out of everything. ${IDEMPOTENCY_NOTE}`,
        params: RejectionReasonParams,
        body: RejectionReasonBody,
        response: { 200: RejectionReasonSchema, 201: RejectionReasonSchema, ...problems(400, 401, 403, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(REJECTION_REASON_EDITORS);
      const code = request.params.code;
      return runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const reason = { code, ...request.body };
        const { created, before } = await saveRejectionReason(trx, reason, now);
        const after = { ...reason, inUse: await countPetitionsRejectedWith(trx, code) };
        await writeAudit(trx, {
          actor: viewer.user,
          action: created ? AUDIT_ACTIONS.rejectionReasonCreate : AUDIT_ACTIONS.rejectionReasonUpdate,
          targetType: 'rejection_reason',
          targetId: code,
          before,
          after,
          at: now,
          madeAt,
        });
        return { statusCode: created ? 201 : 200, body: after };
      });
    },
  );

  typed.delete(
    '/api/rejection-reasons/:code',
    {
      config: { access: REJECTION_REASON_EDITORS },
      schema: {
        operationId: 'deleteRejectionReason',
        tags: [DOC_TAGS.moderation],
        summary: 'Delete a rejection reason no petition uses (administrator)',
        description: `409 while petitions are rejected with it (edit it instead). ${IDEMPOTENCY_NOTE}`,
        params: RejectionReasonParams,
        response: { 200: MessageSchema, ...problems(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(REJECTION_REASON_EDITORS);
      const code = request.params.code;
      return runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        // A rejection choosing this reason right now (moderation-decisions.ts) holds the same lock.
        await context.locks.lock(trx, REJECTION_REASON_LOCK, code);
        const before = await findRejectionReason(trx, code);
        if (!before) throw new HttpError(404, MODERATION_ERRORS.rejectionReasonUnknown);
        if ((await countPetitionsRejectedWith(trx, code)) > 0) throw new HttpError(409, MODERATION_ERRORS.rejectionReasonInUse);
        await deleteRejectionReason(trx, code);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.rejectionReasonDelete,
          targetType: 'rejection_reason',
          targetId: code,
          before,
          after: null,
          at: now,
          madeAt,
        });
        return { body: { message: REJECTION_REASON_DELETED } };
      });
    },
  );
}
