/**
 * Staff and administrator API as one encapsulated Fastify plugin: terms, petition overrides and
 * deletion, government responses, debates, maintenance, bans, the audit log, staff chat
 * messages, presence and the queue summary (presence/) and the statistics (statistics/); the
 * desktop console's sync endpoints are a plugin of their own inside it. Whatever a staff module
 * adds to its Fastify instance (hooks, decorators) stays with the staff routes. Each route declares
 * its access (staff-access.ts); the app's hooks (viewer, CSRF, maintenance, rank freshness) come
 * from the root and apply here as everywhere.
 */
import type { FastifyInstance } from 'fastify';
import { registerAuditRoutes } from '../audit/audit-routes.ts';
import { registerChatMessageRoutes } from '../staff-chat/chat-message-routes.ts';
import { registerPresenceRoutes } from '../presence/presence-routes.ts';
import { registerSiteStatusRoutes } from '../site/site-status-routes.ts';
import { registerStatisticsRoutes } from '../statistics/statistics-routes.ts';
import { registerTermRoutes } from '../terms/terms-routes.ts';
import { registerBanRoutes } from './ban-routes.ts';
import { registerBulkStatusRoutes } from './bulk-status-routes.ts';
import { registerDebateRoutes } from './debate-routes.ts';
import { registerGovernmentResponseRoutes } from './government-response-routes.ts';
import { registerPetitionAdminRoutes } from './petition-admin-routes.ts';
import { registerPetitionDeleteRoutes } from './petition-delete-routes.ts';
import { registerQueueChangesRoutes } from './queue-changes-routes.ts';
import type { StaffDeps } from './staff-deps.ts';
import { registerModerationRoutes } from '../moderation/moderation-routes.ts';
import { registerRejectionReasonRoutes } from '../moderation/rejection-reason-routes.ts';
import { registerIntegrityRoutes } from '../integrity/integrity-routes.ts';

/** What the console's outbox and queues call beyond the single staff writes (README "Offline outbox and sync"). */
export async function consoleSyncRoutes(app: FastifyInstance, deps: StaffDeps): Promise<void> {
  registerBulkStatusRoutes(app, deps);
  registerQueueChangesRoutes(app, deps);
}

export async function staffRoutes(app: FastifyInstance, deps: StaffDeps): Promise<void> {
  registerTermRoutes(app, deps);
  registerSiteStatusRoutes(app, deps);
  registerPetitionAdminRoutes(app, deps);
  await app.register(consoleSyncRoutes, deps);
  registerPetitionDeleteRoutes(app, deps);
  registerGovernmentResponseRoutes(app, deps);
  registerDebateRoutes(app, deps);
  registerBanRoutes(app, deps);
  registerAuditRoutes(app, deps.context);
  registerChatMessageRoutes(app, deps);
  registerModerationRoutes(app, deps);
  registerRejectionReasonRoutes(app, deps);
  registerIntegrityRoutes(app, deps);
  registerPresenceRoutes(app, deps);
  registerStatisticsRoutes(app, deps);
}
