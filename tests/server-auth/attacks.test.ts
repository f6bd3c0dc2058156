/** Sign-in attacks the server must refuse: forged or replayed state, wrong nonce, reused or expired codes, CSRF. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { countRows } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { appFetch, authorizeAs, CookieJar, signInAs } from './browser.ts';
import type { Json } from './browser.ts';
import { sessionRow } from './support.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
});

afterAll(async () => {
  await stack?.close();
});

afterEach(() => {
  vi.useRealTimers();
  stack.setNow(null);
});

async function callback(jar: CookieJar | null, code: string | null, state: string | null, headers: Record<string, string> = {}) {
  return appFetch(stack, jar, '/api/auth/roblox/callback', { method: 'POST', body: { code, state }, headers });
}

async function sessionCount(): Promise<number> {
  return countRows(stack, 'sessions');
}

function expectInvalidCode(response: { status: number; body: Json }) {
  expect(response.status).toBe(400);
  expect(response.body.detail).toBe(ERRORS.invalidAuthorizationCode);
}

describe('state', () => {
  it('refuses a forged state that no login attempt issued', async () => {
    const { callbackUrl, jar } = await authorizeAs(stack, 'Citizen');
    const before = await sessionCount();
    expectInvalidCode(await callback(jar, callbackUrl.searchParams.get('code'), 'forged-state-forged-state-forged'));
    expect(await sessionCount()).toBe(before);
    expect(await sessionRow(stack, jar)).toBeUndefined();
  });

  it('refuses a replayed state (attempts are single use)', async () => {
    const { callbackUrl, jar } = await authorizeAs(stack, 'Citizen');
    const code = callbackUrl.searchParams.get('code');
    const state = callbackUrl.searchParams.get('state');
    expect((await callback(jar, code, state)).status).toBe(200);
    const before = await sessionCount();
    expectInvalidCode(await callback(new CookieJar(), code, state));
    expect(await sessionCount()).toBe(before);
  });

  it('refuses an attempt older than ten minutes as expired (401)', async () => {
    const { callbackUrl, jar } = await authorizeAs(stack, 'Citizen');
    stack.setNow(new Date(Date.now() + 11 * 60 * 1000));
    const response = await callback(jar, callbackUrl.searchParams.get('code'), callbackUrl.searchParams.get('state'));
    expect(response.status).toBe(401);
    expect(response.body.detail).toBe(ERRORS.authenticationExpired);
    expect(await sessionRow(stack, jar)).toBeUndefined();
  });
});

describe('nonce and ID token', () => {
  it('refuses an ID token whose nonce is not the one this attempt sent', async () => {
    const { callbackUrl, jar } = await authorizeAs(stack, 'Prime Minister');
    const state = callbackUrl.searchParams.get('state') ?? '';
    await stack.context.db.updateTable('login_attempts').set({ nonce: 'a-different-nonce-a-different-nonce' }).where('state', '=', state).execute();
    const before = await sessionCount();
    expectInvalidCode(await callback(jar, callbackUrl.searchParams.get('code'), state));
    expect(await sessionCount()).toBe(before);
  });

  it('refuses a code redeemed with the wrong PKCE verifier', async () => {
    const { callbackUrl, jar } = await authorizeAs(stack, 'Citizen');
    const state = callbackUrl.searchParams.get('state') ?? '';
    await stack.context.db.updateTable('login_attempts').set({ code_verifier: 'x'.repeat(43) }).where('state', '=', state).execute();
    expectInvalidCode(await callback(jar, callbackUrl.searchParams.get('code'), state));
  });
});

describe('authorization codes', () => {
  it('refuses a code used a second time, even with a fresh attempt of the attacker', async () => {
    const victim = await authorizeAs(stack, 'Cabinet Minister');
    const code = victim.callbackUrl.searchParams.get('code');
    expect((await callback(victim.jar, code, victim.callbackUrl.searchParams.get('state'))).status).toBe(200);

    const attacker = new CookieJar();
    const login = await appFetch(stack, attacker, '/api/auth/roblox/login');
    const attackerState = new URL(login.body.auth_url).searchParams.get('state');
    expectInvalidCode(await callback(attacker, code, attackerState));
    expect(await sessionRow(stack, attacker)).toBeUndefined();
  });

  it('refuses a made-up code', async () => {
    const jar = new CookieJar();
    const login = await appFetch(stack, jar, '/api/auth/roblox/login');
    expectInvalidCode(await callback(jar, 'made-up-code', new URL(login.body.auth_url).searchParams.get('state')));
  });

  it('refuses an expired code (Roblox codes live one minute)', async () => {
    const { callbackUrl, jar } = await authorizeAs(stack, 'Citizen');
    // The provider runs in this process: moving the wall clock two minutes on expires its code.
    // Our own login attempt (ten minutes) is still valid then, so only the code is at fault.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60 * 1000 });
    expectInvalidCode(await callback(jar, callbackUrl.searchParams.get('code'), callbackUrl.searchParams.get('state')));
    expect(await sessionRow(stack, jar)).toBeUndefined();
  });

  it('answers a malformed callback body with 400 and writes nothing', async () => {
    const before = await sessionCount();
    for (const body of [{}, { code: 'x' }, { code: '', state: 'y' }, { code: 'x', state: 'y', extra: 1 }, { code: 1, state: 2 }]) {
      const response = await appFetch(stack, null, '/api/auth/roblox/callback', { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(await sessionCount()).toBe(before);
  });
});

describe('cross-site requests', () => {
  it('refuses the callback without the CSRF header', async () => {
    const { callbackUrl } = await authorizeAs(stack, 'Citizen');
    const response = await fetch(new URL('/api/auth/roblox/callback', stack.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.baseUrl },
      body: JSON.stringify({ code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { detail: string }).detail).toBe(ERRORS.csrf);
    // The attempt was not consumed by the refused request.
    const left = await stack.context.db.selectFrom('login_attempts').select('state').where('state', '=', callbackUrl.searchParams.get('state') ?? '').executeTakeFirst();
    expect(left).toBeDefined();
  });

  it('refuses the callback from a foreign Origin even with the header', async () => {
    const { callbackUrl } = await authorizeAs(stack, 'Citizen');
    const response = await fetch(new URL('/api/auth/roblox/callback', stack.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', [CSRF_HEADER]: CSRF_HEADER_VALUE },
      body: JSON.stringify({ code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') }),
    });
    expect(response.status).toBe(403);
  });

  it('refuses a cross-site logout and leaves the session alone', async () => {
    const { jar, userId } = await signInAs(stack, 'Citizen');
    const cookie = jar.header(new URL(stack.baseUrl));
    const noHeader = await fetch(new URL(`/api/auth/roblox/logout/${userId}`, stack.baseUrl), { method: 'POST', headers: { cookie } });
    expect(noHeader.status).toBe(403);
    const foreign = await fetch(new URL(`/api/auth/roblox/logout/${userId}`, stack.baseUrl), {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', [CSRF_HEADER]: CSRF_HEADER_VALUE },
    });
    expect(foreign.status).toBe(403);
    expect((await appFetch(stack, jar, '/api/auth/session')).body.user.id).toBe(userId);
  });

  it('refuses any unsafe API call without the header, signed in or not', async () => {
    const { jar } = await signInAs(stack, 'System Administrator');
    const cookie = jar.header(new URL(stack.baseUrl));
    for (const [method, path] of [['POST', '/api/petitions'], ['PUT', '/api/site-status'], ['DELETE', '/api/petitions/1']] as const) {
      const response = await fetch(new URL(path, stack.baseUrl), { method, headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
  });
});

describe('the desktop console (loopback redirect, token in the body)', () => {
  it('signs in with a loopback redirect and its own verifier, and gets a bearer session', async () => {
    const { randomConsoleVerifier, consoleChallengeFor } = await import('../../src-server/auth/sign-in.ts');
    const { DEV_CONSOLE_REDIRECT_URI } = await import('../../src-server/dev/dev-sign-in.ts');
    const verifier = randomConsoleVerifier();
    const query = `?client=console&redirect_uri=${encodeURIComponent(DEV_CONSOLE_REDIRECT_URI)}&console_challenge=${consoleChallengeFor(verifier)}`;
    const { callbackUrl, authUrl } = await authorizeAs(stack, 'Leader of the House of Commons', new CookieJar(), query);
    expect(authUrl.searchParams.get('redirect_uri')).toBe(DEV_CONSOLE_REDIRECT_URI);
    expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(DEV_CONSOLE_REDIRECT_URI);
    const code = callbackUrl.searchParams.get('code');
    const state = callbackUrl.searchParams.get('state');

    // Whoever intercepted the loopback redirect has code and state, but not the verifier.
    const interceptor = await callback(null, code, state, { 'x-petitions-console-verifier': randomConsoleVerifier() });
    expectInvalidCode(interceptor);

    // The attempt is single use, so the console starts over; this time it proves itself.
    const again = await authorizeAs(stack, 'Leader of the House of Commons', new CookieJar(), query);
    const response = await callback(null, again.callbackUrl.searchParams.get('code'), again.callbackUrl.searchParams.get('state'), {
      'x-petitions-console-verifier': verifier,
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.body).toMatchObject({ id: '2007', token_type: 'Bearer' });
    expect(response.body.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(response.body.expires_at)).toBeGreaterThan(Date.now());

    const session = await appFetch(stack, null, '/api/auth/session', { headers: { authorization: `Bearer ${response.body.session_token}` } });
    expect(session.body.user).toMatchObject({ id: '2007', rank: 7 });
    const { hashToken } = await import('../../src-server/sessions/session-service.ts');
    const row = await stack.context.db.selectFrom('sessions').select('client_kind').where('id_hash', '=', hashToken(response.body.session_token)).executeTakeFirst();
    expect(row?.client_kind).toBe('console');
  });

  it('only accepts loopback redirect addresses, and requires the challenge', async () => {
    const challenge = 'A'.repeat(43);
    for (const uri of ['https://evil.example/callback', 'http://192.168.1.2:8000/cb', 'http://127.0.0.1/cb', 'http://127.0.0.1:8000/cb?x=1', 'javascript:alert(1)']) {
      const response = await appFetch(stack, null, `/api/auth/roblox/login?client=console&redirect_uri=${encodeURIComponent(uri)}&console_challenge=${challenge}`);
      expect(response.status, uri).toBe(400);
    }
    const missing = await appFetch(stack, null, `/api/auth/roblox/login?client=console&redirect_uri=${encodeURIComponent('http://127.0.0.1:8000/cb')}`);
    expect(missing.status).toBe(400);
    const webWithRedirect = await appFetch(stack, null, `/api/auth/roblox/login?redirect_uri=${encodeURIComponent('http://127.0.0.1:8000/cb')}`);
    expect(webWithRedirect.status).toBe(400);
  });
});
