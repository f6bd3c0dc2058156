/**
 * The notification outbox: messages are written with the action's transaction and delivered later,
 * so a chat outage can neither fail nor slow a staff action, and no committed action loses its message.
 */
import type { Db } from '../db/schema.ts';
import type { DiscordWebhookMessage } from './discord-message.ts';
import type { NotificationEvent } from './staff-event-messages.ts';

export const OUTBOX_STATES = {
  pending: 'pending',
  sent: 'sent',
  failed: 'failed',
  /** No webhook is configured: the message is kept for the record but never sent. */
  recorded: 'recorded',
} as const;
export type OutboxState = (typeof OUTBOX_STATES)[keyof typeof OUTBOX_STATES];

/** What is posted: the message plus a guard so no text in it can ping anyone. */
export type WebhookPayload = DiscordWebhookMessage & { allowed_mentions: { parse: [] } };

export async function enqueueNotification(
  db: Db,
  entry: { event: NotificationEvent; message: DiscordWebhookMessage; now: Date },
): Promise<number> {
  const payload: WebhookPayload = { ...entry.message, allowed_mentions: { parse: [] } };
  const stamp = entry.now.toISOString();
  const row = await db
    .insertInto('notification_outbox')
    .values({
      event: entry.event,
      payload: JSON.stringify(payload),
      state: OUTBOX_STATES.pending,
      attempts: 0,
      next_attempt_at: stamp,
      last_error: null,
      created_at: stamp,
      sent_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
