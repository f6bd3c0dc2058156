/** POST /api/petitions and the allowance the create form shows before the user types anything. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { CreatePetitionBody, DailyAllowanceSchema, PetitionSchema } from '../../src-shared/domain/schemas.ts';
import { canCreatePetition } from '../../src-shared/rules/permissions.ts';
import type { AppContext } from '../context.ts';
import { permitted, PUBLIC, SIGNED_IN } from '../http/route-access.ts';
import { createPetition } from './create-petition.ts';
import { similarPetitions } from './similar-petitions.ts';
import { SIMILAR_PETITIONS_MAX } from '../../src-shared/domain/moderation-constants.ts';
import { SimilarPetitionsQuery, SimilarPetitionsSchema } from '../../src-shared/domain/moderation-schemas.ts';
import { dailyAllowance } from './daily-allowance.ts';
import { accountAgeRefusalFor } from '../integrity/account-age-gate.ts';
import { problems } from '../http/route-contract.ts';
import { PETITIONS_TAG } from './route-schemas.ts';

/** Who may create is settled before the body is read: strangers learn nothing from 400s. */
const CREATORS = permitted(canCreatePetition, ERRORS.createPermission);

export function registerCreatePetitionRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/petitions/daily-allowance',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'getDailyAllowance',
        tags: [PETITIONS_TAG],
        summary: "The signed-in user's petition allowance for today",
        description:
          'Three petitions per user per Europe/London calendar day; resetsAt is the next UK midnight. banned (with the administrator\'s banReason) means the user may not create petitions at all; ' +
          'accountAgeRefusal, when not null, is the refusal a creation would get because the ROBLOX account is younger than MIN_ACCOUNT_AGE_DAYS.',
        response: { 200: DailyAllowanceSchema, ...problems(401) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(SIGNED_IN);
      return dailyAllowance(context.db, viewer.user.id, context.now(), accountAgeRefusalFor(context, viewer.userRow, 'create'));
    },
  );

  typed.get(
    '/api/petitions/similar',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'findSimilarPetitions',
        tags: [PETITIONS_TAG],
        summary: 'Open petitions similar to a title',
        description:
          `Up to ${SIMILAR_PETITIONS_MAX} open petitions (not closed, not hidden or rejected) that share words with \`title\`, best ` +
          'match first, so a creator can sign one instead of starting another. Very common words are ignored; a title without ' +
          'other words gives an empty list. The create page asks as the title is typed.',
        querystring: SimilarPetitionsQuery,
        response: { 200: SimilarPetitionsSchema, ...problems(400, 429, 503) },
      },
    },
    async (request) => {
      // A full-text search like the list's: its per-client limit and its share of the database
      // connections (docs/limits.md#rate-limits).
      await app.rateLimits.take('search', request);
      return { items: await context.searchGate.run(() => similarPetitions(context, request.query.title)) };
    },
  );

  typed.post(
    '/api/petitions',
    {
      config: { access: CREATORS },
      schema: {
        operationId: 'createPetition',
        tags: [PETITIONS_TAG],
        summary: 'Create a petition',
        description:
          'Needs a British Citizen (or staff) session whose ROBLOX account is at least MIN_ACCOUNT_AGE_DAYS old, Parliament in session and fewer than three petitions today. The creator signs automatically. creator and creator_id, if sent, must name the signed-in user.',
        body: CreatePetitionBody,
        response: { 201: PetitionSchema, ...problems(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(CREATORS);
      const petition = await createPetition(context, viewer, request.body);
      return reply.code(201).send(petition);
    },
  );
}
