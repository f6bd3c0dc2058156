/**
 * The push queue's last step (docs/notifications.md#web-push): due delivery rows are claimed in
 * batches and sent, a few dozen at a time, to their devices' push services.
 *
 * Each message reaches its device at most once:
 * - a row is claimed by one node (`sending`, `due_at` = the claim's end; PostgreSQL: SKIP LOCKED), so
 *   two nodes never send the same row;
 * - a row is deleted as soon as its push service took the message (2xx), so it is never sent again,
 *   after a restart either: a new row for the same event and device cannot appear (fan-out.ts);
 * - a node stops sending from a claimed batch before the claim could lapse, so no other node takes a
 *   row it may still send;
 * - only a message in flight when its node died (it was sent, or not: nobody knows) is sent again,
 *   once its claim lapses (on SQLite, at once when the server starts again), with the same RFC 8030
 *   Topic, so a push service still holding the first copy replaces it rather than delivering two, and
 *   the same notification tag, so a device that got both shows one notification.
 * Failures: 404/410 remove the device; 429, 5xx and network failures retry with backoff, honouring
 * Retry-After (and pausing that push service for this node meanwhile); anything else gives up.
 */
import type { Kysely } from 'kysely';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { PUSH_TTL_SECONDS } from '../../src-shared/domain/push-constants.ts';
import { feedEventSummary } from '../../src-shared/rules/feed.ts';
import { pushPayload } from '../../src-shared/rules/push.ts';
import { parseDetail } from '../feed/events.ts';
import { retryDelayMs, type RetryPolicy } from '../staff-chat/retry-policy.ts';
import { PUSH_REQUEST_TIMEOUT_MS, type PushMessage, type PushOutcome, type PushSender } from './push-sender.ts';
import { isAllowedPushEndpoint, pushServiceOf } from './push-service-origins.ts';
import { removeGoneDevices } from './subscriptions.ts';
import type { WebPushSettings } from './web-push-settings.ts';

export const PUSH_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 10_000,
  maxDelayMs: 60 * 60_000,
  jitterRatio: 0.2,
  maxRetryAfterMs: 24 * 60 * 60_000,
};

/** Rows claimed at once, and sent this many at a time (each group's outcomes are written before the next is sent). */
export const DELIVERY_BATCH = 200;
export const SEND_CONCURRENCY = 50;

export interface PushDeliveryReport {
  claimed: number;
  sent: number;
  gone: number;
  retrying: number;
  failed: number;
  /** Not sent this time (a push service paused after 429, or the claim near its end): due again, no attempt spent. */
  deferred: number;
}

export interface PushDeliveryState {
  /** Push service origin → until when this node sends it nothing (its 429 said so). */
  pausedUntil: Map<string, number>;
}

export interface PushDeliveryOptions {
  db: Kysely<Database>;
  dialect: SqlDialectName;
  settings: WebPushSettings;
  now: () => Date;
  state: PushDeliveryState;
  send: PushSender;
  batchSize?: number;
  concurrency?: number;
  policy?: RetryPolicy;
  random?: () => number;
  log?: { warn(details: object, message: string): void };
}

type Outcome = PushOutcome | 'stale' | { deferUntil: number };

interface Claimed {
  id: number;
  event_id: number;
  subscription_id: number;
  attempts: number;
}

async function claimDue(options: PushDeliveryOptions, claimUntil: string, limit: number): Promise<Claimed[]> {
  const now = options.now().toISOString();
  return options.db
    .updateTable('push_deliveries')
    .set((eb) => ({ due_at: claimUntil, sending: 1, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('push_deliveries')
        .select('id')
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .orderBy('id')
        .limit(limit)
        .$if(options.dialect === 'postgres', (query) => query.forUpdate().skipLocked()),
    )
    .where('due_at', '<=', now)
    .returning(['id', 'event_id', 'subscription_id', 'attempts'])
    .execute();
}

/** The message for each claimed event: public facts only (src-shared/rules/push.ts). */
async function messagesFor(db: Kysely<Database>, eventIds: number[], nowMs: number): Promise<Map<number, PushMessage | null>> {
  const rows = await db
    .selectFrom('petition_events as e')
    .innerJoin('petitions as p', 'p.id', 'e.petition_id')
    .select(['e.id', 'e.kind', 'e.detail', 'e.created_at', 'e.petition_id', 'p.title'])
    .where('e.id', 'in', eventIds)
    .execute();
  const messages = new Map<number, PushMessage | null>();
  for (const row of rows) {
    const detail = parseDetail(row.kind, row.detail);
    const ttlSeconds = PUSH_TTL_SECONDS - Math.floor((nowMs - Date.parse(row.created_at)) / 1000);
    if (!detail || ttlSeconds <= 0) {
      messages.set(row.id, null);
      continue;
    }
    const payload = pushPayload({
      eventId: row.id,
      kind: detail.kind,
      petitionId: row.petition_id,
      petitionTitle: row.title,
      summary: feedEventSummary(detail, row.created_at),
      at: row.created_at,
    });
    messages.set(row.id, { payload: JSON.stringify(payload), topic: `petition-event-${row.id}`, ttlSeconds });
  }
  return messages;
}

/** Claims one batch of due messages and sends it; a report of what happened (claimed 0: nothing was due). */
export async function deliverDueBatch(options: PushDeliveryOptions): Promise<PushDeliveryReport> {
  const report: PushDeliveryReport = { claimed: 0, sent: 0, gone: 0, retrying: 0, failed: 0, deferred: 0 };
  const { db, settings } = options;
  const claimedAt = options.now().getTime();
  const claimUntil = new Date(claimedAt + settings.claimMs).toISOString();
  const claimed = await claimDue(options, claimUntil, options.batchSize ?? DELIVERY_BATCH);
  report.claimed = claimed.length;
  if (!claimed.length) return report;

  const targets = new Map(
    (
      await db
        .selectFrom('push_subscriptions')
        .select(['id', 'endpoint', 'p256dh', 'auth'])
        .where('id', 'in', [...new Set(claimed.map((row) => row.subscription_id))])
        .execute()
    ).map((row) => [row.id, row]),
  );
  const messages = await messagesFor(db, [...new Set(claimed.map((row) => row.event_id))], claimedAt);
  const concurrency = options.concurrency ?? SEND_CONCURRENCY;
  // A send times out well inside the claim, and none starts so late that it could outlast it.
  const timeoutMs = Math.min(PUSH_REQUEST_TIMEOUT_MS, Math.floor(settings.claimMs / 2));
  const lastStart = claimedAt + settings.claimMs - timeoutMs - Math.min(1_000, Math.floor(settings.claimMs / 10));

  for (let start = 0; start < claimed.length; start += concurrency) {
    const group = claimed.slice(start, start + concurrency);
    const nowMs = options.now().getTime();
    const pending: Promise<{ row: Claimed; outcome: Outcome }>[] = [];
    for (const row of group) {
      const target = targets.get(row.subscription_id);
      const message = messages.get(row.event_id);
      const paused = target ? (options.state.pausedUntil.get(pushServiceOf(target.endpoint)) ?? 0) : 0;
      // A device whose push service is no longer allowed (PUSH_SERVICE_ORIGINS changed) gets nothing more.
      if (!target || !message || !isAllowedPushEndpoint(target.endpoint, settings.serviceOrigins)) pending.push(Promise.resolve({ row, outcome: 'stale' }));
      else if (paused > nowMs) pending.push(Promise.resolve({ row, outcome: { deferUntil: paused } }));
      else if (nowMs > lastStart) pending.push(Promise.resolve({ row, outcome: { deferUntil: nowMs } }));
      else pending.push(options.send.send(target, message, timeoutMs).then((outcome) => ({ row, outcome })));
    }
    const outcomes = await Promise.all(pending);
    await recordOutcomes(options, outcomes, report, targets);
  }
  return report;
}

async function recordOutcomes(
  options: PushDeliveryOptions,
  outcomes: { row: Claimed; outcome: Outcome }[],
  report: PushDeliveryReport,
  targets: Map<number, { endpoint: string }>,
): Promise<void> {
  const { db } = options;
  const now = options.now();
  const done: number[] = [];
  const delivered = new Set<number>();
  const gone = new Set<number>();
  for (const { row, outcome } of outcomes) {
    if (outcome === 'stale') {
      done.push(row.id);
      continue;
    }
    if ('deferUntil' in outcome) {
      report.deferred += 1;
      await db
        .updateTable('push_deliveries')
        .set((eb) => ({ due_at: new Date(outcome.deferUntil).toISOString(), sending: 0, attempts: eb('attempts', '-', 1) }))
        .where('id', '=', row.id)
        .execute();
      continue;
    }
    switch (outcome.kind) {
      case 'sent':
        report.sent += 1;
        done.push(row.id);
        delivered.add(row.subscription_id);
        break;
      case 'gone':
        report.gone += 1;
        gone.add(row.subscription_id);
        break;
      case 'refused':
        report.failed += 1;
        done.push(row.id);
        options.log?.warn({ pushDeliveryId: row.id, error: outcome.error }, 'push message refused by the push service; not retried');
        break;
      case 'retry': {
        const service = pushServiceOf(targets.get(row.subscription_id)?.endpoint ?? '');
        if (outcome.status === 429 && outcome.retryAfterMs !== null) {
          const until = now.getTime() + Math.min(outcome.retryAfterMs, (options.policy ?? PUSH_RETRY_POLICY).maxRetryAfterMs);
          options.state.pausedUntil.set(service, Math.max(until, options.state.pausedUntil.get(service) ?? 0));
        }
        const policy = options.policy ?? PUSH_RETRY_POLICY;
        if (row.attempts >= policy.maxAttempts) {
          report.failed += 1;
          done.push(row.id);
          options.log?.warn({ pushDeliveryId: row.id, attempts: row.attempts, error: outcome.error }, 'push message not delivered; giving up');
          break;
        }
        report.retrying += 1;
        const due = new Date(now.getTime() + retryDelayMs(row.attempts, outcome.retryAfterMs, policy, options.random));
        await db
          .updateTable('push_deliveries')
          .set({ due_at: due.toISOString(), sending: 0, last_error: outcome.error.slice(0, 500) })
          .where('id', '=', row.id)
          .execute();
        break;
      }
    }
  }
  if (done.length) await db.deleteFrom('push_deliveries').where('id', 'in', done).execute();
  if (delivered.size) {
    await db
      .updateTable('push_subscriptions')
      .set({ last_delivered_at: now.toISOString() })
      .where('id', 'in', [...delivered])
      .execute();
  }
  if (gone.size) await removeGoneDevices(db, [...gone], now);
}

/**
 * On SQLite one process owns the database, so at start-up every claim it finds is its own previous
 * life's: messages in flight then are due again now, and fan-out pages are free (push/delivery.ts above).
 */
export async function releaseClaimsOfPreviousRun(db: Kysely<Database>, now: Date): Promise<void> {
  const stamp = now.toISOString();
  await db.updateTable('push_deliveries').set({ sending: 0, due_at: stamp }).where('sending', '=', 1).execute();
  await db.updateTable('push_fanouts').set({ claimed_until: stamp }).where('claimed_until', '>', stamp).execute();
}

/** Messages waiting to be sent (the queue's depth). */
export async function pushQueueDepth(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('push_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
