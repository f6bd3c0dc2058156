/** The public and citizen API: browsing, search, export, signing, creation, reporting, closure and home stats. */
import type { FastifyInstance } from 'fastify';
import { registerClosureRoutes } from '../closure/closure-routes.ts';
import type { AppContext } from '../context.ts';
import { registerCreatePetitionRoutes } from './create-petition-routes.ts';
import { registerPetitionDetailRoutes } from './petition-detail-routes.ts';
import { registerPetitionListRoutes } from './petition-list-routes.ts';
import { registerSigningRoutes } from './signing-routes.ts';
import { registerStatsRoutes } from './stats-routes.ts';
import { registerReportRoutes } from '../moderation/report-routes.ts';

export async function registerPublicRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  registerPetitionListRoutes(app, context);
  registerPetitionDetailRoutes(app, context);
  registerCreatePetitionRoutes(app, context);
  registerSigningRoutes(app, context);
  registerStatsRoutes(app, context);
  registerReportRoutes(app, context);

  registerClosureRoutes(app, context.closure);
}
