/**
 * POST /api/notifications/discord (docs/rules.md#chat-notifications): staff may queue their own message for
 * the chat.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageSchema } from '../../src-shared/domain/schemas.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE } from '../staff/route-schemas.ts';
import { CHAT_SENDERS } from '../staff/staff-access.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { DiscordWebhookBody } from './discord-message.ts';
import { enqueueChatMessage } from './chat-queue.ts';
import { CHAT_EVENTS } from './staff-event-messages.ts';

export const CHAT_MESSAGE_QUEUED = 'Notification queued';

export function registerChatMessageRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/notifications/discord',
    {
      config: { access: CHAT_SENDERS },
      schema: {
        operationId: 'queueChatMessage',
        tags: [DOC_TAGS.staffChat],
        summary: 'Queue a chat (Discord webhook) message',
        description: `For staff who see the government panel. The message is delivered in the background. ${IDEMPOTENCY_NOTE}`,
        body: DiscordWebhookBody,
        response: { 202: MessageSchema, ...problems(400, 401, 403, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(CHAT_SENDERS);
      const body = await runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const id = await enqueueChatMessage(trx, { event: CHAT_EVENTS.staffMessage, message: request.body, now });
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.notificationSend,
          targetType: 'notification',
          targetId: id,
          before: null,
          after: request.body,
          at: now,
          madeAt,
        });
        return { statusCode: 202, body: { message: CHAT_MESSAGE_QUEUED } };
      });
      context.chatDelivery.nudge();
      return body;
    },
  );
}
