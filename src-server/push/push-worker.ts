/**
 * Runs the push queue in the background (docs/notifications.md#web-push): takes in new petition
 * events, fans them out to devices and sends the messages, never on a request's path. One per server,
 * made with the context and started with the app (background-work.ts) when web push is on; any number
 * of nodes may run one on the same PostgreSQL database (each step claims its rows).
 *
 * A pass does a bounded amount of each step, then yields; while work remains the next pass follows at
 * once, otherwise after POLL_MS (a staff action's event is pushed within about that long).
 */
import type { Kysely } from 'kysely';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { deliverDueBatch, releaseClaimsOfPreviousRun, type PushDeliveryReport, type PushDeliveryState } from './delivery.ts';
import { takeInEvents } from './event-intake.ts';
import { createPushSender, type PushSender } from './push-sender.ts';
import { fanOutNextPage } from './fan-out.ts';
import type { WebPushSettings } from './web-push-settings.ts';

export const PUSH_POLL_MS = 1_000;
/** How long one pass may keep sending before it yields to the next (requests interleave meanwhile anyway). */
const PASS_BUDGET_MS = 2_000;

export interface PushLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface PassReport {
  takenIn: number;
  queued: number;
  delivery: PushDeliveryReport;
  /** Whether something was left for the next pass. */
  more: boolean;
}

export interface PushWorker {
  readonly enabled: boolean;
  start(log?: PushLog): Promise<void>;
  /** One bounded pass of every step (what the timer runs). */
  runPass(): Promise<PassReport>;
  /** Passes until nothing is due (tests, the benchmark); at most `maxPasses`. */
  drain(maxPasses?: number): Promise<PassReport>;
  stop(): Promise<void>;
}

export interface PushWorkerOptions {
  db: Kysely<Database>;
  dialect: SqlDialectName;
  settings: WebPushSettings | null;
  now: () => Date;
  /** How messages leave (default: to the push services, push-sender.ts). */
  send?: PushSender;
  random?: () => number;
  pollMs?: number;
  /** Messages claimed at once (delivery.ts DELIVERY_BATCH by default). */
  batchSize?: number;
}

const emptyDelivery = (): PushDeliveryReport => ({ claimed: 0, sent: 0, gone: 0, retrying: 0, failed: 0, deferred: 0 });

export function createPushWorker(options: PushWorkerOptions): PushWorker {
  const { db, dialect, settings, now } = options;
  const state: PushDeliveryState = { pausedUntil: new Map() };
  const send = options.send ?? (settings ? createPushSender(settings) : null);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<PassReport> | null = null;
  let stopped = true;
  let log: PushLog | undefined;

  async function pass(): Promise<PassReport> {
    const report: PassReport = { takenIn: 0, queued: 0, delivery: emptyDelivery(), more: false };
    if (!settings) return report;
    const started = performance.now();
    const inBudget = () => performance.now() - started < PASS_BUDGET_MS;

    for (let moved = 1; moved > 0 && inBudget(); ) {
      moved = await takeInEvents(db, dialect, now());
      report.takenIn += moved;
    }
    for (let queued: number | null = 0; queued !== null && inBudget(); ) {
      queued = await fanOutNextPage(db, dialect, { now: now(), claimMs: settings.claimMs });
      report.queued += queued ?? 0;
    }
    for (;;) {
      if (!inBudget()) {
        report.more = true;
        break;
      }
      const batch = await deliverDueBatch({ db, dialect, settings, now, state, send: send!, random: options.random, batchSize: options.batchSize, log });
      for (const key of Object.keys(batch) as (keyof PushDeliveryReport)[]) report.delivery[key] += batch[key];
      if (batch.claimed === 0) break;
    }
    if (!inBudget()) report.more = true;
    return report;
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  function tick(): void {
    timer = null;
    running = pass();
    running
      .then(
        (report) => schedule(report.more ? 0 : (options.pollMs ?? PUSH_POLL_MS)),
        (error: unknown) => {
          log?.error({ err: error }, 'web push pass failed');
          schedule(options.pollMs ?? PUSH_POLL_MS);
        },
      )
      .finally(() => {
        running = null;
      });
  }

  return {
    enabled: settings !== null,
    async start(reportTo) {
      if (!settings || !stopped) return;
      log = reportTo;
      stopped = false;
      if (dialect === 'sqlite') await releaseClaimsOfPreviousRun(db, now());
      schedule(0);
    },
    runPass: pass,
    async drain(maxPasses = 1_000) {
      const total: PassReport = { takenIn: 0, queued: 0, delivery: emptyDelivery(), more: false };
      for (let index = 0; index < maxPasses; index += 1) {
        const report = await pass();
        total.takenIn += report.takenIn;
        total.queued += report.queued;
        for (const key of Object.keys(report.delivery) as (keyof PushDeliveryReport)[]) total.delivery[key] += report.delivery[key];
        const idle = !report.more && report.takenIn === 0 && report.queued === 0 && report.delivery.claimed === 0;
        if (idle) return total;
      }
      total.more = true;
      return total;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
      await send?.close();
    },
  };
}
