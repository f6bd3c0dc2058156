/** The administrator's petition overrides: assign to a term, set any status (§6, term management). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { PetitionPatchBody, PetitionSchema, StatusBody } from '../../src-shared/domain/schemas.ts';
import { canManageTerms, canOverrideStatus } from '../../src-shared/rules/permissions.ts';
import { AUDIT_ACTIONS, writeAudit } from '../audit/audit-log.ts';
import type { PetitionUpdate } from '../db/schema.ts';
import { requirePermission } from '../http/guards.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { requireTerm } from '../terms/terms-repository.ts';
import { expectedVersions, petitionVersion } from './if-match.ts';
import { loadPetitionForChange, savePetitionChange } from './petition-changes.ts';
import { DOC_TAGS, OFFLINE_HEADERS_NOTE, PetitionParams, problems } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';
import { runStaffMutation } from './staff-mutation.ts';

export function registerPetitionAdminRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.patch(
    '/api/petitions/:id',
    {
      schema: {
        tags: [DOC_TAGS.petitions],
        summary: 'Assign a petition to a parliamentary term (administrator)',
        description: `termId null removes the assignment. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: PetitionPatchBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = requirePermission(request, canManageTerms, ERRORS.adminOnly);
      const expected = expectedVersions(request);
      const termId = request.body.termId;
      return runStaffMutation(
        request,
        reply,
        context,
        viewer,
        async (trx, now) => {
          const row = await loadPetitionForChange(trx, request.params.id, expected);
          if (termId !== null) await requireTerm(trx, termId);
          const updated = await savePetitionChange(trx, row, { term_id: termId }, now);
          const after = toPetition(updated);
          await writeAudit(trx, {
            actor: viewer.user,
            action: AUDIT_ACTIONS.petitionAssignTerm,
            targetType: 'petition',
            targetId: row.id,
            before: toPetition(row),
            after,
            at: now,
          });
          return { body: after };
        },
        { etag: petitionVersion },
      );
    },
  );

  typed.patch(
    '/api/petitions/:id/status',
    {
      schema: {
        tags: [DOC_TAGS.petitions],
        summary: 'Set a petition status (administrator)',
        description:
          `Any of the seven statuses. Closing records the time; any other status reopens and clears the closure. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: StatusBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = requirePermission(request, canOverrideStatus, ERRORS.adminOnly);
      const expected = expectedVersions(request);
      const status = request.body.status;
      return runStaffMutation(
        request,
        reply,
        context,
        viewer,
        async (trx, now) => {
          const row = await loadPetitionForChange(trx, request.params.id, expected);
          const changes: PetitionUpdate = { status };
          if (status === 'closed') {
            // Closing a closed petition again keeps the original closure.
            if (row.status !== 'closed') Object.assign(changes, { closed_at: now.toISOString(), closure_reason: null });
          } else {
            Object.assign(changes, { closed_at: null, closure_reason: null });
          }
          const updated = await savePetitionChange(trx, row, changes, now);
          const after = toPetition(updated);
          await writeAudit(trx, {
            actor: viewer.user,
            action: AUDIT_ACTIONS.petitionStatus,
            targetType: 'petition',
            targetId: row.id,
            before: toPetition(row),
            after,
            at: now,
          });
          return { body: after };
        },
        { etag: petitionVersion },
      );
    },
  );
}
