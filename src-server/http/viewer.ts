/** Works out who is calling, from the session cookie or (desktop console) a bearer token. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../src-shared/domain/schemas.ts';
import type { SessionRow, UserRow } from '../db/schema.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { SESSION_ABSOLUTE_MS } from '../sessions/session-service.ts';
import { toUser } from '../users/user-repository.ts';
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

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim() || undefined;
}

export function registerViewer(
  app: FastifyInstance,
  deps: { sessions: SessionService; cookie: CookieSettings; adminUserId: string | undefined },
): void {
  app.decorateRequest('viewer', null);
  app.addHook('onRequest', async (request) => {
    if (!routeScope(request).resolvesViewer) return;
    const bearer = bearerToken(request);
    const token = bearer ?? request.cookies[deps.cookie.name];
    if (!token) return;
    const resolved = await deps.sessions.resolve(token);
    if (!resolved) return;
    request.viewer = {
      user: toUser(resolved.user, deps.adminUserId),
      userRow: resolved.user,
      session: resolved.session,
      viaBearer: Boolean(bearer),
    };
  });
}
