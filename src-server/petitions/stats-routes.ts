/** GET /api/stats: the home page's figures for the current term. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HomeStatsSchema } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { PUBLIC } from '../http/route-access.ts';
import { homeStats } from './home-stats.ts';
import { SITE_TAG } from './route-schemas.ts';

export function registerStatsRoutes(app: FastifyInstance, context: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/stats',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getHomeStats',
        tags: [SITE_TAG],
        summary: 'Figures for the current term',
        description:
          'Petitions created since the current term started, how many have a government response and how many were debated. Zeros and nulls when Parliament is not in session.',
        response: { 200: HomeStatsSchema },
      },
    },
    async () => homeStats(context.db, context.dialect, context.now()),
  );
}
