/** The spec's POST /api/notifications/discord: staff may queue their own message for the chat. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { MessageSchema } from '../../src-shared/domain/schemas.ts';
import { canSeeGovernmentPanel } from '../../src-shared/rules/permissions.ts';
import { AUDIT_ACTIONS, writeAudit } from '../audit/audit-log.ts';
import { requirePermission } from '../http/guards.ts';
import { permitted } from '../http/route-contract.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE, problems } from '../staff/route-schemas.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { DiscordWebhookBody } from './discord-message.ts';
import { enqueueNotification } from './outbox.ts';
import { NOTIFICATION_EVENTS } from './staff-event-messages.ts';

export const NOTIFICATION_QUEUED = 'Notification queued';

export function registerNotificationRoutes(app: FastifyInstance, { context, notifier }: StaffDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/notifications/discord',
    {
      config: { access: permitted(canSeeGovernmentPanel, ERRORS.responseForbidden) },
      schema: {
        operationId: 'queueChatMessage',
        tags: [DOC_TAGS.notifications],
        summary: 'Queue a chat (Discord webhook) message',
        description: `For staff who see the government panel. The message is delivered in the background. ${IDEMPOTENCY_NOTE}`,
        body: DiscordWebhookBody,
        response: { 202: MessageSchema, ...problems(400, 401, 403, 422, 503) },
      },
    },
    async (request, reply) => {
      // The panel is shown from rank 6 up, the same people who may manage responses.
      const viewer = requirePermission(request, canSeeGovernmentPanel, ERRORS.responseForbidden);
      const body = await runStaffMutation(request, reply, context, viewer, async (trx, now) => {
        const id = await enqueueNotification(trx, { event: NOTIFICATION_EVENTS.staffMessage, message: request.body, now });
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.notificationSend,
          targetType: 'notification',
          targetId: id,
          before: null,
          after: request.body,
          at: now,
        });
        return { statusCode: 202, body: { message: NOTIFICATION_QUEUED } };
      });
      notifier.nudge();
      return body;
    },
  );
}
