/**
 * Cross-site request defence for cookie sessions: unsafe methods must carry our custom header
 * (a cross-site form cannot, and we allow no credentialed CORS) and, when the browser sends an
 * Origin, it must be our own. Only a request carrying a well-formed bearer token is exempt: it is
 * then judged by that token alone and its cookie is never read (viewer.ts), and a cross-site page
 * cannot set an Authorization header without a CORS preflight we never grant.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { HttpError } from './problem.ts';
import { routeScope } from './route-scope.ts';
import { bearerCredential } from './viewer.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function ownOrigins(request: FastifyRequest, publicBaseUrl: string | undefined): Set<string> {
  const origins = new Set<string>();
  if (publicBaseUrl) origins.add(new URL(publicBaseUrl).origin);
  const host = request.headers.host;
  if (host) origins.add(`${request.protocol}://${host}`);
  return origins;
}

export function registerCsrfProtection(app: FastifyInstance, publicBaseUrl: string | undefined): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !routeScope(request).api) return;
    if (bearerCredential(request).kind === 'bearer') return;
    if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) throw new HttpError(403, ERRORS.csrf);
    const origin = request.headers.origin;
    if (origin && !ownOrigins(request, publicBaseUrl).has(origin)) throw new HttpError(403, ERRORS.csrf);
  });
}
