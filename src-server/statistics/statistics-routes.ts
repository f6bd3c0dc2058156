/** GET /api/statistics: the administrator's figures of one term (docs/console-team.md#statistics). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { StatisticsQuery, StatisticsSchema, type Statistics } from '../../src-shared/domain/team-schemas.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS } from '../staff/route-schemas.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { STATISTICS_READERS } from '../staff/staff-access.ts';
import { readTermStatistics } from './term-statistics.ts';

export const STATISTICS_PATH = '/api/statistics';

export function registerStatisticsRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { context } = deps;

  typed.get(
    STATISTICS_PATH,
    {
      config: { access: STATISTICS_READERS },
      schema: {
        operationId: 'getStatistics',
        tags: [DOC_TAGS.statistics],
        summary: "A term's statistics: petitions, signatures, answer times and queue backlog (administrator)",
        description:
          'Totals and one row per UK day of the term (to today while it runs): petitions of the term created that day, ' +
          'signatures on them, and at the end of the day how many petitions waited in each queue and how many of those ' +
          'longer than its target. Answer times run from the threshold (10 signatures for a response, 20 for a debate) to the ' +
          'response, or to the debate outcome: median and 90th percentile (nearest rank), in days. Without `term`: the current ' +
          'term, else the latest; 404 when there is no term.',
        querystring: StatisticsQuery,
        response: { 200: StatisticsSchema, ...problems(400, 401, 403, 404, 503) },
      },
    },
    async (request): Promise<Statistics> => {
      request.viewerFor(STATISTICS_READERS);
      return readTermStatistics(context.db, { termId: request.query.term, targets: context.config.queueTargets, now: context.now() });
    },
  );
}
