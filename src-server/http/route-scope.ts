/**
 * Which cross-cutting hooks apply to a request, decided once per route from the URL pattern the
 * router matched, never from the raw URL. The raw URL can be dressed up (`/%61pi/petitions`,
 * `/api/petitions/` …) while the router decodes it and still reaches an API route; the pattern
 * cannot. Every hook (viewer, CSRF, maintenance, rank freshness, cache-control) asks `routeScope`.
 *
 * A route may set `config.scope` itself to override what its pattern gives.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AVATAR_PATH_PREFIX } from '../users/user-repository.ts';

export interface RouteScope {
  /** Part of the JSON API: CSRF checks on unsafe methods, `cache-control: no-store` by default. */
  api: boolean;
  /** Resolves the caller's session (API routes and avatars). */
  resolvesViewer: boolean;
  /** Answers 503 while maintenance is on (except for the administrator). */
  maintenanceGated: boolean;
  /** Re-reads stale group ranks before unsafe calls. */
  refreshesRanks: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
  }
}

const API_PREFIX = '/api/';
/** Reachable during maintenance: the site status, sign-in and the API's own documentation. */
const MAINTENANCE_OPEN = ['/api/site-status', '/api/auth/', '/api/docs'];

const OUTSIDE: RouteScope = { api: false, resolvesViewer: false, maintenanceGated: false, refreshesRanks: false };

function under(pattern: string, prefix: string): boolean {
  // '/api/docs' covers '/api/docs' itself and '/api/docs/…', but not '/api/docsomething'.
  if (prefix.endsWith('/')) return pattern.startsWith(prefix);
  return pattern === prefix || pattern.startsWith(`${prefix}/`);
}

/** The scope of a route pattern as registered (`/api/petitions/:id`). */
export function scopeOfPattern(pattern: string): RouteScope {
  const api = pattern.startsWith(API_PREFIX);
  if (!api) return { ...OUTSIDE, resolvesViewer: pattern.startsWith(AVATAR_PATH_PREFIX) };
  return {
    api,
    resolvesViewer: true,
    maintenanceGated: !MAINTENANCE_OPEN.some((prefix) => under(pattern, prefix)),
    refreshesRanks: !under(pattern, '/api/auth/'),
  };
}

/** Must run before any route is registered: stamps every route with its scope. */
export function registerRouteScopes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.scope) return;
    route.config = { ...route.config, scope: scopeOfPattern(route.url ?? route.path) };
  });
}

/** The scope of the route this request reached; a request no route matched is outside every scope. */
export function routeScope(request: FastifyRequest): RouteScope {
  return request.routeOptions.config?.scope ?? OUTSIDE;
}
