/** Parliamentary terms: anyone may read them; only the administrator changes them (§6). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { MessageSchema, TermBody, TermPatchBody, TermSchema } from '../../src-shared/domain/schemas.ts';
import { canManageTerms } from '../../src-shared/rules/permissions.ts';
import { AUDIT_ACTIONS, writeAudit } from '../audit/audit-log.ts';
import { requirePermission } from '../http/guards.ts';
import { permitted, PUBLIC } from '../http/route-contract.ts';
import { HttpError } from '../http/problem.ts';
import { assertCalendarDates } from '../staff/calendar-date.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE, problems, TermParams } from '../staff/route-schemas.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { deleteTerm, insertTerm, listTerms, requireTerm, updateTerm, type TermValues } from './terms-repository.ts';

export const TERM_DELETED = 'Parliamentary term deleted';

const ADMIN_ONLY = permitted(canManageTerms, ERRORS.adminOnly);

export function registerTermRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/parliamentary-terms',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'listTerms',
        tags: [DOC_TAGS.terms],
        summary: 'List parliamentary terms, by start date',
        description:
          '`status` is the effective status (upcoming, current or completed) today in the UK; `statusOverride` is the stored status that decides it, or null when the dates decide.',
        response: { 200: z.array(TermSchema), ...problems(503) },
      },
    },
    async () => listTerms(context.db, context.now()),
  );

  typed.post(
    '/api/parliamentary-terms',
    {
      config: { access: ADMIN_ONLY },
      schema: {
        operationId: 'createTerm',
        tags: [DOC_TAGS.terms],
        summary: 'Create a parliamentary term (administrator)',
        description: `New terms are stored as upcoming unless the body gives a status (null: follow the dates). ${IDEMPOTENCY_NOTE}`,
        body: TermBody,
        response: { 201: TermSchema, ...problems(400, 401, 403, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = requirePermission(request, canManageTerms, ERRORS.adminOnly);
      const body = request.body;
      assertCalendarDates(body.startDate, body.endDate);
      const values: TermValues = {
        name: body.name.trim(),
        startDate: body.startDate,
        endDate: body.endDate,
        // §4: "New terms are created as upcoming."
        status: body.status === undefined ? 'upcoming' : body.status,
      };
      return runStaffMutation(request, reply, context, viewer, async (trx, now) => {
        const term = await insertTerm(trx, values, now);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.termCreate,
          targetType: 'term',
          targetId: term.id,
          before: null,
          after: term,
          at: now,
        });
        return { statusCode: 201, body: term };
      });
    },
  );

  typed.patch(
    '/api/parliamentary-terms/:id',
    {
      config: { access: ADMIN_ONLY },
      schema: {
        operationId: 'updateTerm',
        tags: [DOC_TAGS.terms],
        summary: 'Change a parliamentary term (administrator)',
        description: `Only the fields sent change; the start must stay on or before the end. ${IDEMPOTENCY_NOTE}`,
        params: TermParams,
        body: TermPatchBody,
        response: { 200: TermSchema, ...problems(400, 401, 403, 404, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = requirePermission(request, canManageTerms, ERRORS.adminOnly);
      const patch = request.body;
      assertCalendarDates(patch.startDate, patch.endDate);
      return runStaffMutation(request, reply, context, viewer, async (trx, now) => {
        const before = await requireTerm(trx, request.params.id, now);
        const merged: TermValues = {
          name: patch.name ?? before.name,
          startDate: patch.startDate ?? before.startDate,
          endDate: patch.endDate ?? before.endDate,
          status: patch.status === undefined ? before.statusOverride : patch.status,
        };
        if (merged.endDate < merged.startDate) throw new HttpError(400, VALIDATION.termDatesOrder);
        const after = await updateTerm(trx, before.id, merged, now);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.termUpdate,
          targetType: 'term',
          targetId: after.id,
          before,
          after,
          at: now,
        });
        return { body: after };
      });
    },
  );

  typed.delete(
    '/api/parliamentary-terms/:id',
    {
      config: { access: ADMIN_ONLY },
      schema: {
        operationId: 'deleteTerm',
        tags: [DOC_TAGS.terms],
        summary: 'Delete a parliamentary term (administrator)',
        description: `Its petitions stay, with no term. ${IDEMPOTENCY_NOTE}`,
        params: TermParams,
        response: { 200: MessageSchema, ...problems(400, 401, 403, 404, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = requirePermission(request, canManageTerms, ERRORS.adminOnly);
      return runStaffMutation(request, reply, context, viewer, async (trx, now) => {
        const term = await requireTerm(trx, request.params.id, now);
        const petitionsUnassigned = await deleteTerm(trx, term.id, now);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.termDelete,
          targetType: 'term',
          targetId: term.id,
          before: { ...term, petitionsUnassigned },
          after: null,
          at: now,
        });
        return { body: { message: TERM_DELETED } };
      });
    },
  );
}
