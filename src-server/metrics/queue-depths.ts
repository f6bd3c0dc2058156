/**
 * Backlogs shown as `petitions_queue_depth{queue="…"}` (docs/operations.md#metrics), read from the
 * database when Prometheus scrapes. Adding a queue is one line in QUEUE_DEPTHS: its label and a
 * count query.
 */
import type { Kysely } from 'kysely';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { CHAT_MESSAGE_STATES } from '../staff-chat/chat-queue.ts';
import { statusFilterSql } from '../petitions/classification-sql.ts';
import { pushQueueDepth } from '../push/delivery.ts';

export interface QueueDepth {
  queue: string;
  count(db: Kysely<Database>, dialect: SqlDialectName): Promise<number>;
}

async function countOf(query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }): Promise<number> {
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export const QUEUE_DEPTHS: readonly QueueDepth[] = [
  // Staff chat messages waiting for delivery (a webhook outage makes this grow).
  { queue: 'chat', count: (db) => countOf(db.selectFrom('chat_messages').select((eb) => eb.fn.countAll().as('n')).where('state', '=', CHAT_MESSAGE_STATES.pending)) },
  // Petitions waiting for a government response, and for a debate decision (docs/statuses.md#staff-queues).
  { queue: 'response_backlog', count: (db, dialect) => countOf(db.selectFrom('petitions').select((eb) => eb.fn.countAll().as('n')).where((eb) => statusFilterSql(eb, dialect, 'awaiting_response')!)) },
  // Web push messages waiting to be sent, retried or claimed (docs/notifications.md#web-push).
  { queue: 'push', count: (db) => pushQueueDepth(db) },
  { queue: 'debate_backlog', count: (db, dialect) => countOf(db.selectFrom('petitions').select((eb) => eb.fn.countAll().as('n')).where((eb) => statusFilterSql(eb, dialect, 'awaiting_debate')!)) },
];
