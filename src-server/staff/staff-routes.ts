/**
 * Staff and administrator API: terms, petition overrides and deletion, government responses,
 * debates, maintenance, bans, the audit log and chat notifications, plus their background work.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerAuditRoutes } from '../audit/audit-routes.ts';
import { createNotificationWorker } from '../notifications/notification-worker.ts';
import { registerNotificationRoutes } from '../notifications/notification-routes.ts';
import { registerSiteStatusRoutes } from '../site/site-status-routes.ts';
import { registerTermRoutes } from '../terms/terms-routes.ts';
import { registerBanRoutes } from './ban-routes.ts';
import { registerBulkStatusRoutes } from './bulk-status-routes.ts';
import { registerDebateRoutes } from './debate-routes.ts';
import { registerGovernmentResponseRoutes } from './government-response-routes.ts';
import { pruneIdempotencyKeys } from './idempotency.ts';
import { registerPetitionAdminRoutes } from './petition-admin-routes.ts';
import { registerPetitionDeleteRoutes } from './petition-delete-routes.ts';
import { registerQueueChangesRoutes } from './queue-changes-routes.ts';
import type { StaffDeps } from './staff-deps.ts';

const IDEMPOTENCY_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

function startBackgroundJobs(app: FastifyInstance, context: AppContext): StaffDeps['notifier'] {
  const worker = createNotificationWorker(context, {
    log: app.log,
    onError: (error) => app.log.error({ err: error }, 'notification delivery pass failed'),
  });
  const pruning = setInterval(() => {
    pruneIdempotencyKeys(context.db, context.now()).catch((error: unknown) =>
      app.log.error({ err: error }, 'pruning idempotency keys failed'),
    );
  }, IDEMPOTENCY_PRUNE_INTERVAL_MS);
  pruning.unref();
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => {
    clearInterval(pruning);
    await worker.stop();
  });
  return worker;
}

export async function registerStaffRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const notifier = context.runBackgroundJobs ? startBackgroundJobs(app, context) : { nudge() {} };
  const deps: StaffDeps = { context, notifier };
  registerTermRoutes(app, deps);
  registerSiteStatusRoutes(app, deps);
  registerPetitionAdminRoutes(app, deps);
  registerBulkStatusRoutes(app, deps);
  registerQueueChangesRoutes(app, deps);
  registerPetitionDeleteRoutes(app, deps);
  registerGovernmentResponseRoutes(app, deps);
  registerDebateRoutes(app, deps);
  registerBanRoutes(app, deps);
  registerAuditRoutes(app, context);
  registerNotificationRoutes(app, deps);
}
