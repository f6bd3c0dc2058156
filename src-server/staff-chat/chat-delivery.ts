/** Sends the chat queue's due messages to the configured webhook, recording each outcome on its row. */
import type { AppContext } from '../context.ts';
import { CHAT_MESSAGE_STATES } from './chat-queue.ts';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy.ts';
import { postToWebhook, WEBHOOK_TIMEOUT_MS } from './webhook-sender.ts';

export interface DeliveryOptions {
  policy?: RetryPolicy;
  timeoutMs?: number;
  batchSize?: number;
  random?: () => number;
  log?: { warn(details: object, message: string): void };
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
  recorded: number;
}

/** A claimed row is hidden from other workers this long: well past the request timeout. */
const CLAIM_MS = 60_000;
const DEFAULT_BATCH = 20;

type DeliveryContext = Pick<AppContext, 'db' | 'config' | 'now'>;

async function recordWithoutSending(context: DeliveryContext): Promise<number> {
  const result = await context.db
    .updateTable('chat_messages')
    .set({ state: CHAT_MESSAGE_STATES.recorded })
    .where('state', '=', CHAT_MESSAGE_STATES.pending)
    .where('next_attempt_at', '<=', context.now().toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deliverDueChatMessages(context: DeliveryContext, options: DeliveryOptions = {}): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0, recorded: 0 };
  const url = context.config.discordWebhookUrl;
  if (!url) {
    report.recorded = await recordWithoutSending(context);
    return report;
  }
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const db = context.db;
  const due = await db
    .selectFrom('chat_messages')
    .select(['id', 'payload', 'attempts', 'next_attempt_at'])
    .where('state', '=', CHAT_MESSAGE_STATES.pending)
    .where('next_attempt_at', '<=', context.now().toISOString())
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(options.batchSize ?? DEFAULT_BATCH)
    .execute();

  for (const row of due) {
    // Claiming moves the row out of the due window, so a second worker (or an overlapping tick) skips it.
    const claim = await db
      .updateTable('chat_messages')
      .set({ next_attempt_at: new Date(context.now().getTime() + CLAIM_MS).toISOString() })
      .where('id', '=', row.id)
      .where('state', '=', CHAT_MESSAGE_STATES.pending)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;

    const outcome = await postToWebhook(url, row.payload, { timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS, now: context.now });
    const attempts = row.attempts + 1;
    const now = context.now();
    if (outcome.kind === 'sent') {
      await db
        .updateTable('chat_messages')
        .set({ state: CHAT_MESSAGE_STATES.sent, attempts, sent_at: now.toISOString(), last_error: null })
        .where('id', '=', row.id)
        .execute();
      report.sent += 1;
      continue;
    }
    const givingUp = outcome.kind === 'refused' || attempts >= policy.maxAttempts;
    const nextAttempt = givingUp
      ? now
      : new Date(now.getTime() + retryDelayMs(attempts, outcome.retryAfterMs, policy, options.random));
    await db
      .updateTable('chat_messages')
      .set({
        state: givingUp ? CHAT_MESSAGE_STATES.failed : CHAT_MESSAGE_STATES.pending,
        attempts,
        last_error: outcome.error,
        next_attempt_at: nextAttempt.toISOString(),
      })
      .where('id', '=', row.id)
      .execute();
    options.log?.warn({ chatMessageId: row.id, attempts, error: outcome.error, givingUp }, 'chat message not delivered');
    if (givingUp) report.failed += 1;
    else report.retrying += 1;
    // Discord limits the whole webhook: the rest of the batch would only collect more 429s.
    if (outcome.kind === 'retry' && outcome.rateLimited) break;
  }
  return report;
}
