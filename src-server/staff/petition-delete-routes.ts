/** Deleting one petition (ranks 7, 8 and the administrator) or all of them (administrator). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { ERRORS, SUCCESS } from '../../src-shared/domain/messages.ts';
import { DeleteAllBody, DeletedCountSchema, MessageSchema } from '../../src-shared/domain/schemas.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { HttpError } from '../http/problem.ts';
import { enqueueChatMessage } from '../staff-chat/chat-queue.ts';
import { allPetitionsDeletedMessage, CHAT_EVENTS } from '../staff-chat/staff-event-messages.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { expectedVersions } from './if-match.ts';
import { loadPetitionForChange } from './versioned-petition-write.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE, OFFLINE_HEADERS_NOTE, PetitionParams } from './route-schemas.ts';
import { eventActor, queuePetitionChatMessage } from './petition-chat-message.ts';
import type { StaffDeps } from './staff-deps.ts';
import { runStaffMutation } from './staff-mutation.ts';
import { ADMINISTRATOR, PETITION_DELETERS } from './staff-access.ts';

export function registerPetitionDeleteRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const { context } = deps;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.delete(
    '/api/petitions/:id',
    {
      config: { access: PETITION_DELETERS },
      schema: {
        operationId: 'deletePetition',
        tags: [DOC_TAGS.petitions],
        summary: 'Delete a petition with its signatures (ranks 7 and 8, administrator)',
        description: OFFLINE_HEADERS_NOTE,
        params: PetitionParams,
        response: { 200: MessageSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(PETITION_DELETERS);
      const expected = expectedVersions(request);
      const body = await runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const row = await loadPetitionForChange(trx, request.params.id, expected);
        const before = toPetition(row);
        // Signatures and tags go with it through ON DELETE CASCADE.
        await trx.deleteFrom('petitions').where('id', '=', row.id).execute();
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.petitionDelete,
          targetType: 'petition',
          targetId: row.id,
          before,
          after: null,
          at: now,
          madeAt,
        });
        await queuePetitionChatMessage(trx, deps, { event: CHAT_EVENTS.petitionDeleted, petition: before, viewer, now });
        return { body: { message: SUCCESS.petitionDeleted } };
      });
      context.chatDelivery.nudge();
      return body;
    },
  );

  typed.post(
    '/api/petitions/delete-all',
    {
      config: { access: ADMINISTRATOR },
      schema: {
        operationId: 'deleteAllPetitions',
        tags: [DOC_TAGS.petitions],
        summary: 'Delete every petition (administrator)',
        description: `The body must confirm with "${DELETE_ALL_CONFIRMATION}". ${IDEMPOTENCY_NOTE}`,
        body: DeleteAllBody,
        response: { 200: DeletedCountSchema, ...problems(400, 401, 403, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(ADMINISTRATOR);
      if (request.body.confirmation !== DELETE_ALL_CONFIRMATION) throw new HttpError(400, ERRORS.deleteAllConfirmation);
      const body = await runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const counts = await trx
          .selectFrom('petitions')
          .select((eb) => [eb.fn.countAll<number>().as('petitions'), eb.fn.sum<number>('signature_count').as('signatures')])
          .executeTakeFirstOrThrow();
        const result = await trx.deleteFrom('petitions').executeTakeFirst();
        const deleted = Number(result.numDeletedRows);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.petitionDeleteAll,
          targetType: 'petitions',
          targetId: null,
          // The deleted content is too large for an audit row; the counts say what was lost.
          before: { petitions: Number(counts.petitions), signatures: Number(counts.signatures ?? 0) },
          after: { petitions: 0 },
          at: now,
          madeAt,
        });
        if (deleted > 0) {
          await enqueueChatMessage(trx, {
            event: CHAT_EVENTS.allPetitionsDeleted,
            message: allPetitionsDeletedMessage({ deleted, actor: eventActor(viewer), now }),
            now,
          });
        }
        return { body: { deleted } };
      });
      context.chatDelivery.nudge();
      return body;
    },
  );
}
