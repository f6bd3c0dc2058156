/**
 * Works out who is calling: from a bearer token (the desktop console) or from the session cookie
 * (the web app), never from both. A request with an Authorization header is judged by that header
 * alone: a well-formed `Bearer <token>` names a console session or no one, anything else is 401,
 * and the cookie is not looked at. Without the header the cookie names a web session or no one.
 * Each session works only the way its client signed in (sessions.client_kind).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientKind } from '../sessions/session-service.ts';
import type { User } from '../../src-shared/domain/schemas.ts';
import type { SessionRow, UserRow } from '../db/schema.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { SESSION_ABSOLUTE_MS } from '../sessions/session-service.ts';
import { toUser } from '../users/user-repository.ts';
import { HttpError } from './problem.ts';
import { routeScope } from './route-scope.ts';

export interface Viewer {
  user: User;
  userRow: UserRow;
  session: SessionRow;
  /** Bearer-token clients (the console) are not exposed to cross-site requests. */
  viaBearer: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

export interface CookieSettings {
  name: string;
  secure: boolean;
}

/** Over https the cookie takes the __Host- prefix: no Domain, Path=/ and Secure, so subdomains cannot plant one. */
export function cookieSettings(publicBaseUrl: string | undefined): CookieSettings {
  const secure = Boolean(publicBaseUrl?.startsWith('https://'));
  return { name: secure ? '__Host-petitions_session' : 'petitions_session', secure };
}

export function setSessionCookie(reply: FastifyReply, settings: CookieSettings, token: string): void {
  reply.setCookie(settings.name, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(settings.name, { path: '/', httpOnly: true, sameSite: 'lax', secure: settings.secure });
}

export const MALFORMED_AUTHORIZATION = 'The Authorization header must be "Bearer" and a session token';

/** Session tokens are 32 random bytes in base64url (session-service.ts); nothing else is one. */
const BEARER = /^Bearer ([A-Za-z0-9_-]{43})$/i;

/**
 * What the request's Authorization header says: no header (`none`), a well-formed bearer token, or
 * something else (`malformed`: a refusal, never a reason to look at the cookie instead).
 */
export function bearerCredential(request: FastifyRequest): { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'malformed' } {
  const header = request.headers.authorization;
  if (header === undefined) return { kind: 'none' };
  const token = BEARER.exec(header)?.[1];
  return token ? { kind: 'bearer', token } : { kind: 'malformed' };
}

/** Which way each kind of session is carried. */
const CARRIED_AS: Record<ClientKind, 'bearer' | 'cookie'> = { console: 'bearer', web: 'cookie' };

export function registerViewer(
  app: FastifyInstance,
  deps: { sessions: SessionService; cookie: CookieSettings; adminUserId: string | undefined },
): void {
  app.decorateRequest('viewer', null);
  app.addHook('onRequest', async (request) => {
    if (!routeScope(request).resolvesViewer) return;
    const credential = bearerCredential(request);
    if (credential.kind === 'malformed') throw new HttpError(401, MALFORMED_AUTHORIZATION, {}, { 'www-authenticate': 'Bearer error="invalid_request"' });
    const carried = credential.kind === 'bearer' ? 'bearer' : 'cookie';
    const token = credential.kind === 'bearer' ? credential.token : request.cookies[deps.cookie.name];
    if (!token) return;
    const resolved = await deps.sessions.resolve(token);
    // A web session's token sent as a bearer token, or a console token put in the cookie, names no one.
    if (!resolved || CARRIED_AS[resolved.session.client_kind === 'console' ? 'console' : 'web'] !== carried) return;
    request.viewer = {
      user: toUser(resolved.user, deps.adminUserId),
      userRow: resolved.user,
      session: resolved.session,
      viaBearer: carried === 'bearer',
    };
  });
}
