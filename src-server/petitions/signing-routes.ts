/** POST /api/petitions/:id/sign and /unsign. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { SignBody, SignResultSchema } from '../../src-shared/domain/schemas.ts';
import { canSign } from '../../src-shared/rules/permissions.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../http/problem.ts';
import { permitted } from '../http/route-contract.ts';
import type { Viewer } from '../http/viewer.ts';
import { assertClaimedIdentity } from './claimed-identity.ts';
import { PetitionIdParams, problems, SIGNING_TAG } from './route-schemas.ts';

/** Signing has its own texts for "not signed in" and "not a citizen" (§5, §8). */
function requireSigner(request: FastifyRequest): Viewer {
  const viewer = request.viewer;
  if (!viewer) throw new HttpError(401, ERRORS.signLoginRequired);
  if (!canSign(viewer.user)) throw new HttpError(403, ERRORS.signUnauthorized);
  return viewer;
}

const signingSchema = (operationId: string, summary: string, description: string) => ({
  operationId,
  tags: [SIGNING_TAG],
  summary,
  description,
  params: PetitionIdParams,
  body: SignBody,
  response: { 200: SignResultSchema, ...problems(400, 401, 403, 404, 409) },
});

/** Checked before the body is read (route contract), so callers without the right learn nothing else. */
const SIGNER_ACCESS = permitted(canSign, ERRORS.signUnauthorized, ERRORS.signLoginRequired);

/** The body is optional: a bodiless POST arrives as null, which the schema's default does not cover. */
async function defaultEmptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/**
 * Everything a signing route does before it signs: schema, signer check and body default. Also
 * used by the benchmark's floor route, which stops there (tests/bench/bench-server.ts).
 */
export function signingRouteOptions(operationId: string, summary: string, description: string) {
  return { config: { access: SIGNER_ACCESS }, preValidation: defaultEmptyBody, schema: signingSchema(operationId, summary, description) };
}

export function registerSigningRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  const routes = [
    {
      action: 'sign',
      operationId: 'signPetition',
      summary: 'Sign a petition',
      description:
        'Adds the signed-in British Citizen to the signers. The body is optional; user_id and username, if sent, must name the signed-in user. Returns the new count.',
    },
    {
      action: 'unsign',
      operationId: 'unsignPetition',
      summary: 'Remove a signature',
      description: 'Removes the signed-in user from the signers of an open petition. Returns the new count.',
    },
  ] as const;
  for (const { action, operationId, summary, description } of routes) {
    typed.post(`/api/petitions/:id/${action}`, signingRouteOptions(operationId, summary, description), async (request) => {
      const viewer = requireSigner(request);
      assertClaimedIdentity(viewer, { id: request.body.user_id, name: request.body.username });
      return context.signing[action](viewer.user, request.params.id);
    });
  }
}
