/** GET /api/petitions (a page of the filtered list) and GET /api/petitions.csv (all of it). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SortOption } from '../../src-shared/domain/constants.ts';
import { PetitionListQuery, PetitionListSchema } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { sendJsonText } from '../http/json-text.ts';
import { PUBLIC } from '../http/route-access.ts';
import { petitionCsvStream } from './csv-export.ts';
import { createPetitionLister } from './petition-list.ts';
import { filtersFromQuery } from './petition-queries.ts';
import { problems } from '../http/route-contract.ts';
import { PETITIONS_TAG } from './route-schemas.ts';
import { parseSearchTerms } from './search-terms.ts';

function siteOrigin(context: AppContext, request: FastifyRequest): string {
  if (context.config.publicBaseUrl) return new URL(context.config.publicBaseUrl).origin;
  return `${request.protocol}://${request.host}`;
}

export function registerPetitionListRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const lister = createPetitionLister(context);

  typed.get(
    '/api/petitions',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'listPetitions',
        tags: [PETITIONS_TAG],
        summary: 'List petitions',
        description:
          'A page of petitions matching the full-text search, status filter, tag and term, in one of the five sort orders (most signatures first by default).',
        querystring: PetitionListQuery,
        response: { 200: PetitionListSchema, ...problems(400, 429, 503) },
      },
    },
    async (request, reply) => {
      // docs/limits.md#rate-limits: searches cost the most, so they have a limit of their own, and
      // hold at most their share of the database's connections (db/connection-gate.ts).
      const searching = parseSearchTerms(request.query.search) !== null;
      await app.rateLimits.take(searching ? 'search' : 'list', request);
      const json = searching ? await context.searchGate.run(() => lister.listJson(request.query)) : await lister.listJson(request.query);
      return sendJsonText(reply, json);
    },
  );

  typed.get(
    '/api/petitions.csv',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'exportPetitionsCsv',
        tags: [PETITIONS_TAG],
        summary: 'Download petitions as CSV',
        description:
          'Every petition matching the same filters as the list (page and pageSize are ignored), up to 50,000 rows. Columns: id, title, status, signatures, created, term, tags, url.',
        querystring: PetitionListQuery,
        response: {
          200: {
            description: 'CSV text, one header line then one line per petition (sent as an attachment).',
            // A stream: the media type says what it is.
            content: { 'text/csv': { schema: z.unknown() } },
          },
          ...problems(400, 429, 503),
        },
      },
    },
    async (request, reply) => {
      await app.rateLimits.take('export', request);
      const stream = await context.searchGate.run(() => petitionCsvStream({
        db: context.db,
        dialect: context.dialect,
        filters: filtersFromQuery(request.query),
        sort: request.query.sort as SortOption | undefined,
        origin: siteOrigin(context, request),
        counts: context.signatureCounts,
      }));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="petitions.csv"')
        .send(stream);
    },
  );
}
