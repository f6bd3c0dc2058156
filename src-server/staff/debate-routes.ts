/** Parliament debate information: the Leader of the House (rank 7) and above (docs/roles.md#permission-rules). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { DebateBody, PetitionSchema } from '../../src-shared/domain/schemas.ts';
import { debateInfoFrom } from '../../src-shared/rules/debate-info.ts';
import { debateEvent } from '../../src-shared/rules/feed.ts';
import { debateSubmissionRole } from '../../src-shared/rules/permissions.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { HttpError } from '../http/problem.ts';
import { CHAT_EVENTS } from '../staff-chat/staff-event-messages.ts';
import { readMeta } from '../petitions/petition-record.ts';
import { assertCalendarDates } from './calendar-date.ts';
import { runPetitionChange } from './run-petition-change.ts';
import { assertSamePetition, contributionMeta, statusAfter } from './contribution-edits.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, OFFLINE_HEADERS_NOTE, PetitionParams } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';
import { DEBATE_MANAGERS } from './staff-access.ts';

export function registerDebateRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/petitions/:id/debate-info',
    {
      config: { access: DEBATE_MANAGERS },
      schema: {
        operationId: 'saveDebateInfo',
        tags: [DOC_TAGS.debate],
        summary: 'Add or edit the debate information (rank 7 and above)',
        description:
          'A date is needed for scheduled and debated, an https Hansard link for debated, a reason for not_debated and cancelled. ' +
          `The status follows the debate: awaiting, debated or not debated in Parliament. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: DebateBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(DEBATE_MANAGERS);
      assertSamePetition(request.body.petition_id, request.params.id);
      assertCalendarDates(request.body.date);
      const debateInfo = debateInfoFrom(request.body);
      return runPetitionChange(request, reply, deps, viewer, request.params.id, (row, _trx, now) => {
        const editing = row.debate_info !== null;
        const meta = contributionMeta(
          editing ? readMeta(row.debate_info_meta) : null,
          { name: viewer.user.displayName, role: debateSubmissionRole(viewer.user) },
          now,
        );
        return {
          changes: {
            debate_info: JSON.stringify(debateInfo),
            debate_info_meta: JSON.stringify(meta),
            status: statusAfter(row, { governmentResponse: row.government_response, debateInfo }),
          },
          action: editing ? AUDIT_ACTIONS.debateEdit : AUDIT_ACTIONS.debateAdd,
          event: editing ? CHAT_EVENTS.debateEdited : CHAT_EVENTS.debateAdded,
          feedEvent: debateEvent(debateInfo),
        };
      });
    },
  );

  typed.delete(
    '/api/petitions/:id/debate-info',
    {
      config: { access: DEBATE_MANAGERS },
      schema: {
        operationId: 'removeDebateInfo',
        tags: [DOC_TAGS.debate],
        summary: 'Remove the debate information (rank 7 and above)',
        description: `409 when there is none. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 409, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(DEBATE_MANAGERS);
      return runPetitionChange(request, reply, deps, viewer, request.params.id, (row) => {
        if (row.debate_info === null) throw new HttpError(409, ERRORS.noDebateInfo);
        return {
          changes: {
            debate_info: null,
            debate_info_meta: null,
            status: statusAfter(row, { governmentResponse: row.government_response, debateInfo: null }),
          },
          action: AUDIT_ACTIONS.debateRemove,
          event: CHAT_EVENTS.debateRemoved,
        };
      });
    },
  );
}
