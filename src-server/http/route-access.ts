/**
 * Who may call a route, checked once per request and handed to the handler as a typed viewer.
 *
 * A route declares its access in `config.access` (PUBLIC, SIGNED_IN or `permitted(rule, …)` with a
 * rule from src-shared/rules/permissions.ts). The route contract (route-contract.ts) turns that
 * declaration into the route's own onRequest check, which answers 401/403 before the body is parsed
 * and keeps the viewer it let through. The handler asks for that viewer with the same constant:
 *
 *     const ADMIN_ONLY = permitted(canManageBans, ERRORS.adminOnly);
 *     typed.put(url, { config: { access: ADMIN_ONLY }, schema }, async (request) => {
 *       const viewer = request.viewerFor(ADMIN_ONLY); // a Viewer, never null: already checked
 *
 * `viewerFor` checks nothing again; it refuses (a programming error, 500) an access the route did not
 * declare, so a handler can neither skip the check nor run one of its own.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { PermissionSubject } from '../../src-shared/rules/permissions.ts';
import { HttpError } from './problem.ts';
import type { Viewer } from './viewer.ts';

export interface PublicAccess {
  kind: 'public';
}
export interface SignedInAccess {
  kind: 'signedIn';
  signedOutDetail?: string;
}
export interface PermittedAccess {
  kind: 'permitted';
  allowed: (user: PermissionSubject) => boolean;
  forbiddenDetail: string;
  signedOutDetail?: string;
}
export type RouteAccess = PublicAccess | SignedInAccess | PermittedAccess;

/** What the handler of a route with this access receives: anyone's viewer may be null, a checked one never. */
export type ViewerOf<A extends RouteAccess> = A extends PublicAccess ? Viewer | null : Viewer;

const verifiedViewer: unique symbol = Symbol('verifiedViewer');

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The viewer the route's access check let through; `access` must be the route's own `config.access`. */
    viewerFor<A extends RouteAccess>(access: A): ViewerOf<A>;
    [verifiedViewer]: Viewer | null;
  }
}

export const PUBLIC: PublicAccess = { kind: 'public' };
export const SIGNED_IN: SignedInAccess = { kind: 'signedIn' };

export function permitted(
  allowed: (user: PermissionSubject) => boolean,
  forbiddenDetail: string,
  signedOutDetail?: string,
): PermittedAccess {
  return { kind: 'permitted', allowed, forbiddenDetail, signedOutDetail };
}

/** The route's onRequest check for its access (none for public routes). */
export function accessCheck(access: RouteAccess): ((request: FastifyRequest) => Promise<void>) | null {
  if (access.kind === 'public') return null;
  return async (request) => {
    const viewer = request.viewer;
    if (!viewer) throw new HttpError(401, access.signedOutDetail ?? ERRORS.loginRequired);
    if (access.kind === 'permitted' && !access.allowed(viewer.user)) throw new HttpError(403, access.forbiddenDetail);
    request[verifiedViewer] = viewer;
  };
}

function viewerFor(this: FastifyRequest, access: RouteAccess): Viewer | null {
  if (this.routeOptions.config.access !== access) {
    throw new Error(`${this.method} ${this.routeOptions.url}: viewerFor was given another access than the route's config.access`);
  }
  if (access.kind === 'public') return this.viewer;
  const viewer = this[verifiedViewer];
  if (!viewer) throw new Error(`${this.method} ${this.routeOptions.url}: the route's access check did not run`);
  return viewer;
}

/** Must be registered before any route. */
export function registerRouteAccess(app: FastifyInstance): void {
  app.decorateRequest(verifiedViewer, null);
  app.decorateRequest('viewerFor', viewerFor as FastifyRequest['viewerFor']);
}
