/** POST /api/petitions/:id/sign and /unsign. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { SignBody, SignResultSchema } from '../../src-shared/domain/schemas.ts';
import { canSign } from '../../src-shared/rules/permissions.ts';
import type { AppContext } from '../context.ts';
import { permitted } from '../http/route-access.ts';
import { assertAccountOldEnough } from '../integrity/account-age-gate.ts';
import { assertClaimedIdentity } from './claimed-identity.ts';
import { problems } from '../http/route-contract.ts';
import { PetitionIdParams, SIGNING_TAG } from './route-schemas.ts';

const signingSchema = (operationId: string, summary: string, description: string) => ({
  operationId,
  tags: [SIGNING_TAG],
  summary,
  description,
  params: PetitionIdParams,
  body: SignBody,
  response: { 200: SignResultSchema, ...problems(400, 401, 403, 404, 409) },
});

/**
 * Checked before the body is read (route contract), so callers without the right learn nothing else.
 * Signing has its own texts for "not signed in" and "not a citizen" (docs/rules.md#signing).
 */
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
        'Adds the signed-in British Citizen to the signers. The body is optional; user_id and username, if sent, must name the signed-in user. Returns the new count. ' +
        '403 also when the ROBLOX account is younger than MIN_ACCOUNT_AGE_DAYS (the detail names the date it qualifies) or when staff invalidated this account\'s signature on this petition.',
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
      const viewer = request.viewerFor(SIGNER_ACCESS);
      assertClaimedIdentity(viewer, { id: request.body.user_id, name: request.body.username });
      // Removing a signature is always allowed; a new one needs an old enough account.
      if (action === 'sign') assertAccountOldEnough(context, viewer.userRow, 'sign');
      return context.signing[action](viewer.user, request.params.id);
    });
  }
}
