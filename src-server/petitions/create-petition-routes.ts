/** POST /api/petitions and the allowance the create form shows before the user types anything. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { CreatePetitionBody, DailyAllowanceSchema, PetitionSchema } from '../../src-shared/domain/schemas.ts';
import { canCreatePetition } from '../../src-shared/rules/permissions.ts';
import type { AppContext } from '../context.ts';
import { requireViewer } from '../http/guards.ts';
import { permitted, SIGNED_IN } from '../http/route-contract.ts';
import { createPetition } from './create-petition.ts';
import { dailyAllowance } from './daily-allowance.ts';
import { PETITIONS_TAG, problems } from './route-schemas.ts';

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
          'Three petitions per user per Europe/London calendar day; resetsAt is the next UK midnight. banned (with the administrator\'s banReason) means the user may not create petitions at all.',
        response: { 200: DailyAllowanceSchema, ...problems(401) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      return dailyAllowance(context.db, viewer.user.id, context.now());
    },
  );

  typed.post(
    '/api/petitions',
    {
      // Who may create is settled before the body is read: strangers learn nothing from 400s.
      config: { access: permitted(canCreatePetition, ERRORS.createPermission) },
      schema: {
        operationId: 'createPetition',
        tags: [PETITIONS_TAG],
        summary: 'Create a petition',
        description:
          'Needs a British Citizen (or staff) session, Parliament in session and fewer than three petitions today. The creator signs automatically. creator and creator_id, if sent, must name the signed-in user.',
        body: CreatePetitionBody,
        response: { 201: PetitionSchema, ...problems(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const petition = await createPetition(context, viewer, request.body);
      return reply.code(201).send(petition);
    },
  );
}
