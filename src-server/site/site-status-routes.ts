/** Maintenance mode and whether Parliament sits, as the server knows them. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SiteStatusBody, SiteStatusSchema, type SiteStatus } from '../../src-shared/domain/schemas.ts';
import { isInSession } from '../../src-shared/rules/terms.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import type { AppContext } from '../context.ts';
import { PUBLIC } from '../http/route-access.ts';
import type { Db } from '../db/schema.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE } from '../staff/route-schemas.ts';
import { MAINTENANCE_TOGGLERS } from '../staff/staff-access.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { listTerms } from '../terms/terms-repository.ts';

async function inSession(db: Db, now: Date): Promise<boolean> {
  return isInSession(await listTerms(db, now), now);
}

export async function readSiteStatus(context: AppContext): Promise<SiteStatus> {
  return {
    maintenance: await context.siteSettings.isMaintenanceOn(),
    inSession: await inSession(context.db, context.now()),
  };
}

export function registerSiteStatusRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/site-status',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getSiteStatus',
        tags: [DOC_TAGS.site],
        summary: 'Maintenance mode and whether Parliament is in session',
        description: 'Always reachable, also during maintenance.',
        response: { 200: SiteStatusSchema },
      },
    },
    async () => readSiteStatus(context),
  );

  typed.put(
    '/api/site-status',
    {
      config: { access: MAINTENANCE_TOGGLERS },
      schema: {
        operationId: 'setMaintenance',
        tags: [DOC_TAGS.site],
        summary: 'Switch maintenance mode (administrator)',
        description: `While it is on, every API call except the site status and sign-in answers 503 to all but the administrator. ${IDEMPOTENCY_NOTE}`,
        body: SiteStatusBody,
        response: { 200: SiteStatusSchema, ...problems(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(MAINTENANCE_TOGGLERS);
      const maintenance = request.body.maintenance;
      const answer = await runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const before = await context.siteSettings.readMaintenance(trx);
        await context.siteSettings.setMaintenance(maintenance, { executor: trx, now });
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.maintenance,
          targetType: 'site',
          targetId: 'maintenance',
          before: { maintenance: before },
          after: { maintenance },
          at: now,
          madeAt,
        });
        return { body: { maintenance, inSession: await inSession(trx, now) } };
      });
      // Committed (or replayed): this node's cache is forgotten only now, never before the commit, so
      // the next request here reads the stored switch; open pages hear of it now, not at the next tick.
      context.siteSettings.committed();
      void context.live.poke();
      return answer;
    },
  );
}
