/**
 * Cross-site request defence for cookie sessions: unsafe methods must carry our custom header
 * (a cross-site form cannot, and we allow no credentialed CORS) and, when the browser sends an
 * Origin, it must be our own.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { HttpError } from './problem.ts';
import { routeScope } from './route-scope.ts';

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
    if (request.headers.authorization?.startsWith('Bearer ')) return;
    if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) throw new HttpError(403, ERRORS.csrf);
    const origin = request.headers.origin;
    if (origin && !ownOrigins(request, publicBaseUrl).has(origin)) throw new HttpError(403, ERRORS.csrf);
  });
}
