/**
 * Government responses: Cabinet Ministers (rank 6) and above add, edit and remove them
 * (docs/roles.md#permission-rules).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { GovernmentResponseBody, PetitionSchema } from '../../src-shared/domain/schemas.ts';
import { responseEvent } from '../../src-shared/rules/feed.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { z } from 'zod';
import { officeRefusal } from '../../src-shared/rules/offices.ts';
import { HttpError } from '../http/problem.ts';
import { lastOfficeInAuditLog } from './last-office.ts';
import { CHAT_EVENTS } from '../staff-chat/staff-event-messages.ts';
import { readDebateInfo, readMeta } from '../petitions/petition-record.ts';
import { runPetitionChange } from './run-petition-change.ts';
import { assertSamePetition, contributionMeta, statusAfter } from './contribution-edits.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, OFFLINE_HEADERS_NOTE, PetitionParams } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';
import { RESPONSE_MANAGERS } from './staff-access.ts';

export function registerGovernmentResponseRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/petitions/:id/government-response',
    {
      config: { access: RESPONSE_MANAGERS },
      schema: {
        operationId: 'saveGovernmentResponse',
        tags: [DOC_TAGS.response],
        summary: 'Add or edit the government response (rank 6 and above)',
        description:
          'The response is recorded under the signed-in user (added_by is ignored) with the chosen ministerial office. ' +
          'Prime Minister and Leader of the House of Commons are the offices of rank 8 and rank 7: anyone else but the ' +
          'administrator choosing them gets 400. ' +
          `The status follows: government_response unless a debate stage applies. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: GovernmentResponseBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(RESPONSE_MANAGERS);
      assertSamePetition(request.body.petition_id, request.params.id);
      const text = request.body.response_text.trim();
      const office = request.body.added_by_role.trim();
      // An office a rank defines is that rank's own (docs/roles.md#offices-tied-to-a-rank).
      const refusal = officeRefusal(viewer.user, office);
      if (refusal) throw new HttpError(400, refusal, { errors: [{ field: 'added_by_role', message: refusal }] });
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
          event: editing ? CHAT_EVENTS.responseEdited : CHAT_EVENTS.responseAdded,
          feedEvent: responseEvent(text, editing),
        };
      });
    },
  );

  typed.get(
    '/api/me/last-office',
    {
      config: { access: RESPONSE_MANAGERS },
      schema: {
        operationId: 'getLastOffice',
        tags: [DOC_TAGS.response],
        summary: 'The office the signed-in member chose for their latest government response (rank 6 and above)',
        description:
          'Null before their first response. The response forms start from it when the member may still use it, else from ' +
          'the office their rank defines (rank 8: Prime Minister, rank 7: Leader of the House of Commons).',
        response: { 200: z.object({ office: z.string().nullable() }), ...problems(401, 403, 503) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(RESPONSE_MANAGERS);
      return { office: await lastOfficeInAuditLog(deps.context.db, viewer.user.id) };
    },
  );

  typed.delete(
    '/api/petitions/:id/government-response',
    {
      config: { access: RESPONSE_MANAGERS },
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
      const viewer = request.viewerFor(RESPONSE_MANAGERS);
      return runPetitionChange(request, reply, deps, viewer, request.params.id, (row) => {
        if (row.government_response === null) throw new HttpError(409, ERRORS.noGovernmentResponse);
        return {
          changes: {
            government_response: null,
            government_response_meta: null,
            status: statusAfter(row, { governmentResponse: null, debateInfo: readDebateInfo(row.debate_info) }),
          },
          action: AUDIT_ACTIONS.responseRemove,
          event: CHAT_EVENTS.responseRemoved,
        };
      });
    },
  );
}
