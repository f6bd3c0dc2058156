/** While maintenance is on, every API call but the site status and sign-in answers 503 to all but the administrator. */
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { bypassesMaintenance } from '../../src-shared/rules/permissions.ts';
import type { SiteSettings } from '../site/site-settings.ts';
import { HttpError } from './problem.ts';
import { routeScope } from './route-scope.ts';

export function registerMaintenanceGate(app: FastifyInstance, settings: SiteSettings): void {
  app.addHook('onRequest', async (request) => {
    if (!routeScope(request).maintenanceGated) return;
    if (!(await settings.isMaintenanceOn())) return;
    if (bypassesMaintenance(request.viewer?.user)) return;
    throw new HttpError(503, ERRORS.maintenance, {}, { 'retry-after': '120' });
  });
}
