/**
 * The server's own background work that no route owns: the timed closure pass, delivering the staff chat queue and the web push
 * queue (push/push-worker.ts), pruning old Idempotency-Keys and deleting notification events past their
 * retention (feed/retention.ts), anonymising the signers of petitions closed past their retention
 * (privacy/signer-retention.ts); and signature integrity's monitor and invalidation runner
 * (integrity/integrity-background.ts). Started when the app is ready and stopped when it closes, only where the
 * context says background jobs run (the real server; request-level tests drive this work by hand).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { startClosureScheduler } from './closure/closure-scheduler.ts';
import { startFeedRetention } from './feed/retention.ts';
import { startIntegrityWork } from './integrity/integrity-background.ts';
import { pruneIdempotencyKeys } from './staff/idempotency.ts';
import { createSignerRetention, startSignerRetention } from './privacy/signer-retention.ts';

const IDEMPOTENCY_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export function registerBackgroundWork(app: FastifyInstance, context: AppContext): void {
  if (!context.runBackgroundJobs) return;
  const pruning = setInterval(() => {
    pruneIdempotencyKeys(context.db, context.now()).catch((error: unknown) =>
      app.log.error({ err: error }, 'pruning idempotency keys failed'),
    );
  }, IDEMPOTENCY_PRUNE_INTERVAL_MS);
  pruning.unref();
  startClosureScheduler(app, context, context.closure);
  app.addHook('onReady', async () => {
    context.chatDelivery.start(app.log);
    await context.push.start(app.log);
  });
  startFeedRetention(app, context);
  startSignerRetention(app, createSignerRetention(context));
  app.addHook('onClose', async () => {
    clearInterval(pruning);
    await context.chatDelivery.stop();
    await context.push.stop();
  });
  startIntegrityWork(app, context);
}
