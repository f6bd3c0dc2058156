/**
 * The API's contract, applied to every documented route in one place when it is registered:
 *
 *  - who may call it (`config.access`, route-access.ts), checked in the route's onRequest hook, so
 *    callers without the right get 401/403 before their body is parsed or validated;
 *  - its OpenAPI `security`, derived from that access and the method (unsafe calls with a cookie
 *    session also need the CSRF header);
 *  - the Problem Details replies every route of its kind can give (400 for invalid input, 401/403,
 *    413/415 for bodies, 503 during maintenance, 500), added to the ones the route lists itself
 *    with `problems(404, 409, …)`.
 *
 * A new route declares `operationId`, `tags`, `summary`, `config: { access }` and its own
 * problems; registration fails loudly when a documented route lacks an operationId or an access.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ProblemSchema } from '../../src-shared/domain/schemas.ts';
import { accessCheck, type RouteAccess } from './route-access.ts';
import { scopeOfPattern } from './route-scope.ts';

/** Security scheme names in components.securitySchemes. */
export const SECURITY_SCHEMES = {
  session: 'session',
  bearer: 'bearer',
  csrf: 'csrf',
} as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type SecurityRequirement = Record<string, string[]>;

/**
 * Signed-in calls carry the session cookie or (desktop console) a bearer token. Unsafe calls with a
 * cookie need the CSRF header too; a bearer token needs nothing more. Public reads need nothing.
 */
export function securityFor(access: RouteAccess, method: string): SecurityRequirement[] {
  const unsafe = !SAFE_METHODS.has(method.toUpperCase());
  const { session, bearer, csrf } = SECURITY_SCHEMES;
  if (access.kind === 'public') return unsafe ? [{ [csrf]: [] }, { [bearer]: [] }] : [];
  return unsafe ? [{ [session]: [], [csrf]: [] }, { [bearer]: [] }] : [{ [session]: [] }, { [bearer]: [] }];
}

/** What each problem status means in this API, as the document describes it. */
export const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request: a parameter or the body is invalid. `detail` gives the first problem, `errors` one entry per field.',
  401: 'Unauthorized: no valid session (sign in first), or an Authorization header that is not `Bearer <session token>`.',
  403: 'Forbidden: the signed-in user may not do this, or an unsafe call lacked the `x-petitions-csrf: 1` header or came from another site.',
  404: 'Not Found: no such resource.',
  409: 'Conflict: the resource is not in a state that allows this.',
  410: 'Gone: the petition was rejected; `rejection` holds the reason the public may read.',
  412: 'Precondition Failed: `If-Match` names an older version; `petition` holds the current one.',
  413: 'Content Too Large: the body exceeds the size limit.',
  415: 'Unsupported Media Type: send the body as application/json.',
  422: 'Unprocessable Content: this `Idempotency-Key` was already used for a different request.',
  429: 'Too Many Requests: a limit is reached, for this caller only (see `detail`, and `Retry-After` when given).',
  502: 'Bad Gateway: Roblox (the identity provider) could not be reached or answered wrongly.',
  500: 'Internal Server Error: something went wrong on our side; the request may be retried.',
  503: 'Service Unavailable: the site is under maintenance, the database is not answering, or the server is busy (see `detail` and `Retry-After`), or sign-in is not configured.',
};

export interface ProblemResponse {
  description: string;
  content: { 'application/problem+json': { schema: typeof ProblemSchema } };
}

function problemResponse(status: number): ProblemResponse {
  return {
    description: PROBLEM_DESCRIPTIONS[status] ?? 'Error',
    content: { 'application/problem+json': { schema: ProblemSchema } },
  };
}

/** The Problem Details replies a route lists itself (what its own logic can answer), keyed by status. */
export function problems<const S extends readonly number[]>(...statuses: S): Record<S[number], ProblemResponse> {
  return Object.fromEntries(statuses.map((status) => [status, problemResponse(status)])) as Record<S[number], ProblemResponse>;
}

interface DocumentedSchema {
  hide?: boolean;
  operationId?: string;
  security?: SecurityRequirement[];
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  headers?: unknown;
  response?: Record<string | number, unknown>;
}

/** The statuses any route of this kind can answer, whatever its own logic does. */
export function standardProblemStatuses(route: { method: string; url: string; schema: DocumentedSchema; access: RouteAccess }): number[] {
  const statuses = new Set<number>([500]);
  const { schema, access } = route;
  const unsafe = !SAFE_METHODS.has(route.method);
  if (schema.params || schema.querystring || schema.body || schema.headers) statuses.add(400);
  if (schema.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (access.kind !== 'public') statuses.add(401);
  if (access.kind === 'permitted' || (unsafe && scopeOfPattern(route.url).api)) statuses.add(403);
  if (scopeOfPattern(route.url).maintenanceGated) statuses.add(503);
  return [...statuses];
}

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted: queued for delivery' };

/** A bare zod schema for a 2xx reply becomes a described application/json response. */
function successResponse(status: number, reply: unknown): unknown {
  if (status < 200 || status >= 300 || !reply || typeof reply !== 'object' || 'content' in reply) return reply;
  return { description: SUCCESS_DESCRIPTIONS[status] ?? 'Success', content: { 'application/json': { schema: reply } } };
}

function methodsOf(route: RouteOptions): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
}

function withHook<T>(existing: T | T[] | undefined, first: T): T[] {
  if (!existing) return [first];
  return [first, ...(Array.isArray(existing) ? existing : [existing])];
}

/** Must be registered before any documented route (and before @fastify/swagger reads them). */
export function registerRouteContract(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as DocumentedSchema | undefined;
    if (!schema || schema.hide) return;
    const url = route.url ?? route.path;
    const method = methodsOf(route)[0] ?? 'GET';
    if (method === 'HEAD' && route.config?.access === undefined) return;
    const access = route.config?.access;
    if (!access) throw new Error(`${method} ${url}: declare config.access (PUBLIC, SIGNED_IN or permitted(...)) for the API contract`);
    if (!schema.operationId) throw new Error(`${method} ${url}: declare schema.operationId for the API contract`);

    const check = accessCheck(access);
    if (check) route.onRequest = withHook(route.onRequest, check);
    schema.security = securityFor(access, method);
    const response: Record<string | number, unknown> = {};
    for (const [status, reply] of Object.entries(schema.response ?? {})) response[status] = successResponse(Number(status), reply);
    for (const status of standardProblemStatuses({ method, url, schema, access })) {
      response[status] ??= problemResponse(status);
    }
    schema.response = response;
  });
}
