/** The whole web sign-in against the local provider over real HTTP, then the session's life and end. */
import { refreshTokenGrant, ResponseBodyError } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { UserSchema } from '../../src-shared/domain/schemas.ts';
import { SESSION_ABSOLUTE_MS } from '../../src-server/sessions/session-service.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { personaId } from '../support/fixtures.ts';
import { appFetch, authorizeAs, CookieJar, signInAs } from './browser.ts';
import type { Json } from './browser.ts';
import { serverClient, sessionCookie, sessionRow, storedTokens } from './support.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
});

afterAll(async () => {
  await stack?.close();
});

describe('the login address', () => {
  it('is an authorization request with PKCE S256, state and nonce, kept server-side', async () => {
    const { status, body } = await appFetch(stack, null, '/api/auth/roblox/login');
    expect(status).toBe(200);
    const url = new URL(body.auth_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.providerUrl}/oauth/v1/authorize`);
    const params = url.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(stack.context.config.roblox.clientId);
    expect(params.get('redirect_uri')).toBe(`${stack.baseUrl}/auth/callback`);
    expect(params.get('scope')).toBe('openid profile group:read verification');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.has('code_verifier')).toBe(false);

    const attempt = await stack.context.db.selectFrom('login_attempts').selectAll().where('state', '=', params.get('state') ?? '').executeTakeFirstOrThrow();
    expect(attempt.nonce).toBe(params.get('nonce'));
    expect(attempt.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(attempt.client_kind).toBe('web');
    const ttl = Date.parse(attempt.expires_at) - Date.parse(attempt.created_at);
    expect(ttl).toBe(10 * 60 * 1000);
  });

  it('gives every attempt its own state, nonce and challenge', async () => {
    const a = new URL((await appFetch(stack, null, '/api/auth/roblox/login')).body.auth_url);
    const b = new URL((await appFetch(stack, null, '/api/auth/roblox/login')).body.auth_url);
    for (const key of ['state', 'nonce', 'code_challenge']) expect(a.searchParams.get(key)).not.toBe(b.searchParams.get(key));
  });

  it('keeps a same-origin returnTo and drops anything that could leave the site', async () => {
    const cases: [string, string | null][] = [
      ['/petition/12?tab=signers', '/petition/12?tab=signers'],
      ['//evil.example/x', null],
      ['https://evil.example/', null],
      ['/\\evil.example', null],
      ['/%09/evil.example', '/%09/evil.example'],
    ];
    for (const [returnTo, stored] of cases) {
      const { body } = await appFetch(stack, null, `/api/auth/roblox/login?returnTo=${encodeURIComponent(returnTo)}`);
      const state = new URL(body.auth_url).searchParams.get('state') ?? '';
      const attempt = await stack.context.db.selectFrom('login_attempts').select('return_to').where('state', '=', state).executeTakeFirstOrThrow();
      expect(attempt.return_to, returnTo).toBe(stored);
    }
  });

  it('refuses unknown query parameters with a 400', async () => {
    const { status } = await appFetch(stack, null, '/api/auth/roblox/login?next=/x');
    expect(status).toBe(400);
  });
});

describe('signing in as the Citizen persona', () => {
  let jar: CookieJar;
  let callbackStatus: number;
  let callbackBody: Json;
  let setCookie: string;
  let state: string;

  beforeAll(async () => {
    jar = new CookieJar();
    const { callbackUrl } = await authorizeAs(stack, 'Citizen', jar, '?returnTo=%2Fpetitions');
    expect(callbackUrl.pathname).toBe('/auth/callback');
    state = callbackUrl.searchParams.get('state') ?? '';
    const response = await appFetch(stack, jar, '/api/auth/roblox/callback', {
      method: 'POST',
      body: { code: callbackUrl.searchParams.get('code'), state },
    });
    callbackStatus = response.status;
    callbackBody = response.body;
    setCookie = response.headers.getSetCookie().join('\n');
  });

  it('answers the callback with the user id and the returnTo given at login', () => {
    expect(callbackStatus).toBe(200);
    expect(callbackBody).toEqual({ id: personaId('Citizen'), returnTo: '/petitions' });
  });

  it('sets an HttpOnly, SameSite=Lax session cookie for the whole site', () => {
    expect(setCookie).toMatch(/^petitions_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(new RegExp(`; Max-Age=${Math.floor(SESSION_ABSOLUTE_MS / 1000)}`));
    // Served over http here; over https the cookie is Secure with the __Host- prefix (see session-cookie test).
    expect(setCookie).not.toMatch(/; Secure/i);
  });

  it('used the login attempt up', async () => {
    const left = await stack.context.db.selectFrom('login_attempts').select('state').where('state', '=', state).executeTakeFirst();
    expect(left).toBeUndefined();
  });

  it('stores only a hash of the session token and the Roblox tokens sealed', async () => {
    const row = await sessionRow(stack, jar);
    expect(row).toBeDefined();
    expect(row?.id_hash).not.toBe(sessionCookie(stack, jar));
    expect(row?.client_kind).toBe('web');
    expect(row?.tokens).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const tokens = await storedTokens(stack, jar);
    expect(tokens?.access_token).toBeTruthy();
    expect(tokens?.refresh_token).toBeTruthy();
    expect(row?.tokens).not.toContain(tokens?.refresh_token ?? '');
    expect(tokens?.access_expires_at).toBeGreaterThan(Date.now() + 10 * 60 * 1000);
  });

  it('records the profile and the ranks from the group API', async () => {
    const user = await stack.context.users.find(personaId('Citizen'));
    expect(user).toMatchObject({
      username: 'DevCitizen',
      display_name: 'Casey Citizen',
      citizen_rank: 1,
      government_rank: 0,
      groups_unavailable: 0,
      avatar_url: `${stack.providerUrl}/headshots/2001.png`,
    });
    expect(Date.now() - Date.parse(user?.roles_checked_at ?? '')).toBeLessThan(60_000);
  });

  it('reports the user on GET /api/auth/session', async () => {
    const { status, body } = await appFetch(stack, jar, '/api/auth/session');
    expect(status).toBe(200);
    expect(body.user).toEqual({
      id: '2001',
      username: 'DevCitizen',
      displayName: 'Casey Citizen',
      avatar: '/avatar/2001',
      rank: 1,
      userType: 'British Citizen',
      government_rank: 0,
      citizen_rank: 1,
      can_sign: true,
      groups_unavailable: false,
    });
    expect(UserSchema.safeParse(body.user).success).toBe(true);
  });

  it('serves the user endpoint for the own id only', async () => {
    const own = await appFetch(stack, jar, '/api/auth/roblox/user/2001');
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: '2001', rank: 1, can_sign: true });
    expect(own.headers.get('cache-control')).toBe('no-store');

    const other = await appFetch(stack, jar, '/api/auth/roblox/user/2008');
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe(ERRORS.otherUser);

    const bad = await appFetch(stack, jar, '/api/auth/roblox/user/abc');
    expect(bad.status).toBe(400);
  });

  it('answers visitors: session null, user endpoint 401', async () => {
    const session = await appFetch(stack, null, '/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ user: null });
    const user = await appFetch(stack, null, '/api/auth/roblox/user/2001');
    expect(user.status).toBe(401);
    expect(user.body.detail).toBe(ERRORS.loginRequired);
  });
});

describe('signing in again', () => {
  it('rotates the session: the session the request carried is destroyed', async () => {
    const first = await signInAs(stack, 'Citizen');
    const oldToken = sessionCookie(stack, first.jar);
    const oldRow = await sessionRow(stack, first.jar);
    expect(oldRow).toBeDefined();

    // Signed in at the provider as the Citizen, the provider would skip its page; switch persona there.
    first.jar.clear(stack.providerUrl);
    await signInAs(stack, 'Prime Minister', first.jar);
    const newToken = sessionCookie(stack, first.jar);
    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(oldToken);
    const stillThere = await stack.context.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', oldRow?.id_hash ?? '').executeTakeFirst();
    expect(stillThere).toBeUndefined();
    const { body } = await appFetch(stack, first.jar, '/api/auth/session');
    expect(body.user.id).toBe(personaId('Prime Minister'));
  });
});

describe('logging out', () => {
  it('ends the session, clears the cookie and revokes the refresh token at the provider', async () => {
    const { jar, userId } = await signInAs(stack, 'Cabinet Minister');
    const token = sessionCookie(stack, jar);
    const row = await sessionRow(stack, jar);
    const tokens = await storedTokens(stack, jar);
    expect(tokens?.refresh_token).toBeTruthy();

    const logout = await appFetch(stack, jar, `/api/auth/roblox/logout/${userId}`, { method: 'POST' });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ message: 'Signed out' });
    expect(logout.headers.getSetCookie().join('\n')).toMatch(/petitions_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(sessionCookie(stack, jar)).toBeUndefined();

    const gone = await stack.context.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', row?.id_hash ?? '').executeTakeFirst();
    expect(gone).toBeUndefined();

    // The old cookie value, replayed, is worth nothing.
    const replay = await appFetch(stack, null, `/api/auth/roblox/user/${userId}`, { headers: { cookie: `petitions_session=${token}` } });
    expect(replay.status).toBe(401);
    const session = await appFetch(stack, null, '/api/auth/session', { headers: { cookie: `petitions_session=${token}` } });
    expect(session.body).toEqual({ user: null });

    // Revoked at the provider: the refresh token no longer works.
    const client = await serverClient(stack);
    const refresh = refreshTokenGrant(client, tokens?.refresh_token ?? '');
    await expect(refresh).rejects.toBeInstanceOf(ResponseBodyError);
    await expect(refresh).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses to log out someone else (403) and visitors (401)', async () => {
    const { jar, userId } = await signInAs(stack, 'Citizen');
    const other = await appFetch(stack, jar, '/api/auth/roblox/logout/2008', { method: 'POST' });
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe(ERRORS.otherUser);
    expect((await appFetch(stack, jar, '/api/auth/session')).body.user.id).toBe(userId);

    const visitor = await appFetch(stack, null, `/api/auth/roblox/logout/${userId}`, { method: 'POST' });
    expect(visitor.status).toBe(401);
  });
});
