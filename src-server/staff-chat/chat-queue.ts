/**
 * The chat queue: staff chat messages are written with the action's transaction and delivered later
 * (chat-delivery.ts), so a chat outage can neither fail nor slow a staff action, and no committed
 * action loses its message.
 */
import type { Db } from '../db/schema.ts';
import type { DiscordWebhookMessage } from './discord-message.ts';
import type { ChatEvent } from './staff-event-messages.ts';

export const CHAT_MESSAGE_STATES = {
  pending: 'pending',
  sent: 'sent',
  failed: 'failed',
  /** No webhook is configured: the message is kept for the record but never sent. */
  recorded: 'recorded',
} as const;
export type ChatMessageState = (typeof CHAT_MESSAGE_STATES)[keyof typeof CHAT_MESSAGE_STATES];

/** What is posted: the message plus a guard so no text in it can ping anyone. */
export type WebhookPayload = DiscordWebhookMessage & { allowed_mentions: { parse: [] } };

/** Queues one message; returns its id in the queue. */
export async function enqueueChatMessage(
  db: Db,
  entry: { event: ChatEvent; message: DiscordWebhookMessage; now: Date },
): Promise<number> {
  const payload: WebhookPayload = { ...entry.message, allowed_mentions: { parse: [] } };
  const stamp = entry.now.toISOString();
  const row = await db
    .insertInto('chat_messages')
    .values({
      event: entry.event,
      payload: JSON.stringify(payload),
      state: CHAT_MESSAGE_STATES.pending,
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
