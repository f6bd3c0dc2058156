/** When the identity provider is unreachable or not configured: clear 5xx answers for sign-in, never a 500, and no rights granted. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { loadConfig } from '../../src-server/config.ts';
import { startTestApi } from '../support/api-harness.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { appFetch, authorizeAs, signInAs } from './browser.ts';

describe('without a configured client', () => {
  it('answers the sign-in calls with 503 and the session call as usual', async () => {
    const api = await startTestApi();
    try {
      const login = await api.request({ url: '/api/auth/roblox/login' });
      expect(login.statusCode).toBe(503);
      expect(login.json().detail).toBe(ERRORS.authenticationServerError);
      const callback = await api.request({ method: 'POST', url: '/api/auth/roblox/callback', payload: { code: 'c', state: 's' } });
      expect(callback.statusCode).toBe(503);
      expect((await api.request({ url: '/api/auth/session' })).json()).toEqual({ user: null });
    } finally {
      await api.close();
    }
  });
});

describe('with an unreachable issuer', () => {
  it('answers the login call with 502 and the spec’s server-error text', async () => {
    const base = loadConfig({ NODE_ENV: 'test' });
    const api = await startTestApi({
      roblox: { ...base.roblox, clientId: 'client', clientSecret: 'secret', issuer: 'http://127.0.0.1:9/oauth/' },
    });
    try {
      const login = await api.request({ url: '/api/auth/roblox/login' });
      expect(login.statusCode).toBe(502);
      expect(login.json().detail).toBe(ERRORS.authenticationServerError);
      const attempts = await api.context.db.selectFrom('login_attempts').selectAll().execute();
      expect(attempts).toEqual([]);
    } finally {
      await api.close();
    }
  });
});

describe('when the provider goes away mid-flight', () => {
  const PROBE = '/api/test-probe/outage';
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      serveWebApp: false,
      extraRoutes: (app) => app.post(PROBE, async (request) => ({ user: request.viewer?.user ?? null })),
    });
  });

  afterAll(async () => {
    stack.setNow(null);
    await stack?.close();
  });

  it('a re-check that cannot refresh the token withdraws the rights instead of failing the request', async () => {
    const { jar } = await signInAs(stack, 'Prime Minister');
    const pending = await authorizeAs(stack, 'Citizen');
    await stack.devProvider.close();

    // The code exchange cannot reach the provider: 502, the spec's server-error text, no session.
    const callback = await appFetch(stack, pending.jar, '/api/auth/roblox/callback', {
      method: 'POST',
      body: { code: pending.callbackUrl.searchParams.get('code'), state: pending.callbackUrl.searchParams.get('state') },
    });
    expect(callback.status).toBe(502);
    expect(callback.body.detail).toBe(ERRORS.authenticationServerError);

    stack.setNow(new Date(Date.now() + 16 * 60 * 1000));
    const probe = await appFetch(stack, jar, PROBE, { method: 'POST' });
    expect(probe.status).toBe(200);
    expect(probe.body.user).toMatchObject({ id: '2008', rank: 0, groups_unavailable: true });
    // Still signed in: the session survives an outage.
    expect((await appFetch(stack, jar, '/api/auth/session')).body.user.id).toBe('2008');

    // Logout still works (revocation is best effort) and ends the session.
    const logout = await appFetch(stack, jar, '/api/auth/roblox/logout/2008', { method: 'POST' });
    expect(logout.status).toBe(200);
    expect((await appFetch(stack, jar, '/api/auth/session')).body.user).toBeNull();
  });
});
