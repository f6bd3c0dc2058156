/** Government responses: Cabinet Ministers (rank 6) and above add, edit and remove them (§6). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { GovernmentResponseBody, PetitionSchema } from '../../src-shared/domain/schemas.ts';
import { canManageGovernmentResponse } from '../../src-shared/rules/permissions.ts';
import { AUDIT_ACTIONS } from '../audit/audit-log.ts';
import { requirePermission } from '../http/guards.ts';
import { permitted } from '../http/route-contract.ts';
import { HttpError } from '../http/problem.ts';
import { NOTIFICATION_EVENTS } from '../notifications/staff-event-messages.ts';
import { readDebateInfo, readMeta } from '../petitions/petition-record.ts';
import { runPetitionChange } from './petition-change.ts';
import { assertSamePetition, contributionMeta, statusAfter } from './petition-changes.ts';
import { DOC_TAGS, OFFLINE_HEADERS_NOTE, PetitionParams, problems } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';

export function registerGovernmentResponseRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/petitions/:id/government-response',
    {
      config: { access: permitted(canManageGovernmentResponse, ERRORS.responseForbidden) },
      schema: {
        operationId: 'saveGovernmentResponse',
        tags: [DOC_TAGS.response],
        summary: 'Add or edit the government response (rank 6 and above)',
        description:
          'The response is recorded under the signed-in user (added_by is ignored) with the chosen ministerial office. ' +
          `The status follows: government_response unless a debate stage applies. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: GovernmentResponseBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = requirePermission(request, canManageGovernmentResponse, ERRORS.responseForbidden);
      assertSamePetition(request.body.petition_id, request.params.id);
      const text = request.body.response_text.trim();
      const office = request.body.added_by_role.trim();
      return runPetitionChange(request, reply, deps, viewer, request.params.id, (row, _trx, now) => {
        const editing = row.government_response !== null;
        const meta = contributionMeta(
          editing ? readMeta(row.government_response_meta) : null,
          { name: viewer.user.displayName, role: office },
          now,
        );
        return {
          changes: {
            government_response: text,
            government_response_meta: JSON.stringify(meta),
            status: statusAfter(row, { governmentResponse: text, debateInfo: readDebateInfo(row.debate_info) }),
          },
          action: editing ? AUDIT_ACTIONS.responseEdit : AUDIT_ACTIONS.responseAdd,
          event: editing ? NOTIFICATION_EVENTS.responseEdited : NOTIFICATION_EVENTS.responseAdded,
        };
      });
    },
  );

  typed.delete(
    '/api/petitions/:id/government-response',
    {
      config: { access: permitted(canManageGovernmentResponse, ERRORS.responseForbidden) },
      schema: {
        operationId: 'removeGovernmentResponse',
        tags: [DOC_TAGS.response],
        summary: 'Remove the government response (rank 6 and above)',
        description: `409 when there is none. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 409, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = requirePermission(request, canManageGovernmentResponse, ERRORS.responseForbidden);
      return runPetitionChange(request, reply, deps, viewer, request.params.id, (row) => {
        if (row.government_response === null) throw new HttpError(409, ERRORS.noGovernmentResponse);
        return {
          changes: {
            government_response: null,
            government_response_meta: null,
            status: statusAfter(row, { governmentResponse: null, debateInfo: readDebateInfo(row.debate_info) }),
          },
          action: AUDIT_ACTIONS.responseRemove,
          event: NOTIFICATION_EVENTS.responseRemoved,
        };
      });
    },
  );
}
