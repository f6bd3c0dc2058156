/** POST /api/petitions/:id/reports: a member reports a petition (docs/moderation.md#reporting). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { REPORT_REASONS } from '../../src-shared/domain/moderation-constants.ts';
import { ReportBody, ReportReceiptSchema } from '../../src-shared/domain/moderation-schemas.ts';
import type { AppContext } from '../context.ts';
import { problems } from '../http/route-contract.ts';
import { PetitionIdParams } from '../petitions/route-schemas.ts';
import { API_TAGS } from '../http/openapi-document.ts';
import { REPORTERS } from './moderation-access.ts';
import { reportPetition } from './report-petition.ts';

export function registerReportRoutes(app: FastifyInstance, context: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/petitions/:id/reports',
    {
      config: { access: REPORTERS },
      schema: {
        operationId: 'reportPetition',
        tags: [API_TAGS.reports.name],
        summary: 'Report a petition',
        description:
          `For signed-in members who may sign. \`reason\` is one of ${REPORT_REASONS.join(', ')}; \`duplicate\` needs ` +
          '`duplicateOf` (the petition it repeats) and `other` needs `details`. One report per member per petition (409), ' +
          `at most ${context.config.moderation.reportsPerDay} per member per UK day (429 with Retry-After); banned members and ` +
          `the creator get 403, a petition the public cannot see 404. When ${context.config.moderation.reportsToHide} members ` +
          'have reported it and no moderator has decided since, the petition is hidden until one does.',
        params: PetitionIdParams,
        body: ReportBody,
        response: { 201: ReportReceiptSchema, ...problems(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(REPORTERS);
      const { receipt } = await reportPetition(context, viewer, request.params.id, request.body);
      return reply.code(201).send(receipt);
    },
  );
}
