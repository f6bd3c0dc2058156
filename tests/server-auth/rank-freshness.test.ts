/**
 * Stale ranks are re-checked before unsafe calls: with the stored access token while it is valid,
 * else after a (single-flight) refresh that rotates the refresh token; a dead refresh token ends the session.
 */
import { refreshTokenGrant, tokenRevocation } from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { ROLE_RECHECK_MS } from '../../src-server/auth/rank-freshness.ts';
import { seedPetition } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { appFetch, authorizeAs, CookieJar, signInAs, signInAsCustomUser } from './browser.ts';
import { serverClient, sessionRow, storedTokens } from './support.ts';

/** A test-only unsafe route: answers with the viewer the route handler sees. */
const PROBE = '/api/test-probe/whoami';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    serveWebApp: false,
    extraRoutes: (app) => {
      app.post(PROBE, async (request) => ({ user: request.viewer?.user ?? null }));
      app.get(PROBE, async (request) => ({ user: request.viewer?.user ?? null }));
    },
  });
});

afterAll(async () => {
  await stack?.close();
});

afterEach(() => {
  stack.setNow(null);
  stack.devProvider.setGroupApiFailure('none');
});

async function signInCustom(jar: CookieJar, user: { userId: string; displayName: string; citizenRank: number; governmentRank: number }, redeem = true) {
  const { callbackUrl } = await authorizeAs(stack, (j, page) => signInAsCustomUser(j, page, user, stack.baseUrl), jar);
  if (!redeem) return;
  const response = await appFetch(stack, jar, '/api/auth/roblox/callback', {
    method: 'POST',
    body: { code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') },
  });
  expect(response.status).toBe(200);
}

/** Re-ranks a user at the provider (the custom-user form) without signing them in at our app. */
async function reRankAtProvider(user: { userId: string; displayName: string; citizenRank: number; governmentRank: number }) {
  await signInCustom(new CookieJar(), user, false);
}

async function ageRanks(userId: string, byMs: number) {
  await stack.context.db
    .updateTable('users')
    .set({ roles_checked_at: new Date(Date.now() - byMs).toISOString() })
    .where('id', '=', userId)
    .execute();
}

async function rolesCheckedAt(userId: string) {
  return (await stack.context.users.find(userId))?.roles_checked_at ?? null;
}

describe('ranks older than ten minutes', () => {
  it('are fetched again before an unsafe call, and the route sees the new rights', async () => {
    const jar = new CookieJar();
    await signInCustom(jar, { userId: '4001', displayName: 'Riley Riser', citizenRank: 1, governmentRank: 0 });
    expect((await appFetch(stack, jar, PROBE, { method: 'POST' })).body.user).toMatchObject({ rank: 1, government_rank: 0 });

    // Promoted on Roblox to Leader of the House; our ranks are now 11 minutes old.
    await reRankAtProvider({ userId: '4001', displayName: 'Riley Riser', citizenRank: 1, governmentRank: 7 });
    await ageRanks('4001', ROLE_RECHECK_MS + 60_000);
    const before = await rolesCheckedAt('4001');

    const probe = await appFetch(stack, jar, PROBE, { method: 'POST' });
    expect(probe.status).toBe(200);
    expect(probe.body.user).toMatchObject({ id: '4001', rank: 7, userType: 'Government Official', government_rank: 7 });
    const after = await rolesCheckedAt('4001');
    expect(Date.parse(after ?? '')).toBeGreaterThan(Date.parse(before ?? ''));
    expect((await stack.context.users.find('4001'))?.government_rank).toBe(7);
  });

  it('are re-checked whichever spelling of the path reaches the route', async () => {
    const jar = new CookieJar();
    await signInCustom(jar, { userId: '4004', displayName: 'Pat Percent', citizenRank: 1, governmentRank: 0 });
    const spellings = ['/%61pi/test-probe/whoami', '/api/%74est-probe/whoami', '/%61%70%69/test-probe/whoami/'];
    for (const [index, path] of spellings.entries()) {
      const governmentRank = [6, 7, 8][index] ?? 0;
      await reRankAtProvider({ userId: '4004', displayName: 'Pat Percent', citizenRank: 1, governmentRank });
      await ageRanks('4004', ROLE_RECHECK_MS + 60_000);
      const probe = await appFetch(stack, jar, path, { method: 'POST' });
      expect(probe.status, path).toBe(200);
      expect(probe.body.user, path).toMatchObject({ id: '4004', government_rank: governmentRank });
    }
  });

  it('are fresh before a real route checks who may call it', async () => {
    const jar = new CookieJar();
    await signInCustom(jar, { userId: '4005', displayName: 'Morgan Minister', citizenRank: 1, governmentRank: 0 });
    const petition = await seedPetition(stack.context, { termId: null });
    const url = `/api/petitions/${petition.id}/government-response`;
    expect((await appFetch(stack, jar, url, { method: 'POST', body: {} })).status).toBe(403);

    await reRankAtProvider({ userId: '4005', displayName: 'Morgan Minister', citizenRank: 1, governmentRank: 6 });
    await ageRanks('4005', ROLE_RECHECK_MS + 60_000);
    // Past the access check with the new rank, the empty body is what is wrong now.
    const response = await appFetch(stack, jar, url, { method: 'POST', body: { response_text: ' ', added_by_role: 'Chancellor of the Exchequer' } });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe(VALIDATION.responseRequired);
  });

  it('take rights away as quickly (demotion)', async () => {
    const jar = new CookieJar();
    await signInCustom(jar, { userId: '4002', displayName: 'Dana Demoted', citizenRank: 1, governmentRank: 8 });
    await reRankAtProvider({ userId: '4002', displayName: 'Dana Demoted', citizenRank: 0, governmentRank: 0 });
    await ageRanks('4002', ROLE_RECHECK_MS);
    expect((await appFetch(stack, jar, PROBE, { method: 'POST' })).body.user).toMatchObject({ rank: 0, can_sign: false, government_rank: 0 });
  });

  it('are left alone by safe calls and while fresh', async () => {
    const jar = new CookieJar();
    await signInCustom(jar, { userId: '4003', displayName: 'Sam Safe', citizenRank: 1, governmentRank: 0 });
    await reRankAtProvider({ userId: '4003', displayName: 'Sam Safe', citizenRank: 1, governmentRank: 6 });

    // Fresh (just signed in): an unsafe call does not re-check.
    expect((await appFetch(stack, jar, PROBE, { method: 'POST' })).body.user.rank).toBe(1);

    await ageRanks('4003', ROLE_RECHECK_MS + 1000);
    const stale = await rolesCheckedAt('4003');
    expect((await appFetch(stack, jar, PROBE)).body.user.rank).toBe(1);
    expect((await appFetch(stack, jar, '/api/auth/session')).body.user.rank).toBe(1);
    expect(await rolesCheckedAt('4003')).toBe(stale);
  });
});

describe('refreshing the Roblox tokens for a re-check', () => {
  it('rotates the refresh token when the access token has expired, and persists the new one', async () => {
    const { jar, userId } = await signInAs(stack, 'Cabinet Minister');
    const before = await storedTokens(stack, jar);
    stack.setNow(new Date(Date.now() + 16 * 60 * 1000));

    const probe = await appFetch(stack, jar, PROBE, { method: 'POST' });
    expect(probe.status).toBe(200);
    expect(probe.body.user).toMatchObject({ id: userId, rank: 6 });

    const after = await storedTokens(stack, jar);
    expect(after?.refresh_token).toBeTruthy();
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    expect(after?.access_token).not.toBe(before?.access_token);
    expect(Date.parse((await rolesCheckedAt(userId)) ?? '')).toBe(stack.context.now().getTime());

    // Refresh tokens are single use: the old one is dead at the provider.
    await expect(refreshTokenGrant(await serverClient(stack), before?.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refreshes once for many concurrent unsafe calls of one session (single flight)', async () => {
    const { jar } = await signInAs(stack, 'Prime Minister');
    const before = await storedTokens(stack, jar);
    stack.setNow(new Date(Date.now() + 20 * 60 * 1000));

    const results = await Promise.all(Array.from({ length: 8 }, () => appFetch(stack, jar, PROBE, { method: 'POST' })));
    // A second refresh with the spent token would have failed with invalid_grant and ended the session.
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results.every((r) => r.body.user.rank === 8)).toBe(true);
    const after = await storedTokens(stack, jar);
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    await expect(refreshTokenGrant(await serverClient(stack), after?.refresh_token ?? '')).resolves.toMatchObject({ token_type: expect.stringMatching(/bearer/i) });
  });

  it('ends the session with 401 when the refresh token was revoked (invalid_grant)', async () => {
    const { jar, userId } = await signInAs(stack, 'Citizen');
    const tokens = await storedTokens(stack, jar);
    const row = await sessionRow(stack, jar);
    // The user revoked our app on Roblox.
    await tokenRevocation(await serverClient(stack), tokens?.refresh_token ?? '');
    stack.setNow(new Date(Date.now() + 16 * 60 * 1000));

    const probe = await appFetch(stack, jar, PROBE, { method: 'POST' });
    expect(probe.status).toBe(401);
    expect(probe.body.detail).toBe(ERRORS.loginRequired);
    expect(probe.headers.getSetCookie().join('\n')).toMatch(/petitions_session=;/);
    const gone = await stack.context.db.selectFrom('sessions').select('id_hash').where('id_hash', '=', row?.id_hash ?? '').executeTakeFirst();
    expect(gone).toBeUndefined();
    expect((await appFetch(stack, null, `/api/auth/roblox/user/${userId}`, { headers: { cookie: `petitions_session=${row ? 'x' : ''}` } })).status).toBe(401);
  });

  it('a session whose sealed tokens cannot be opened must sign in again', async () => {
    const { jar } = await signInAs(stack, 'Citizen');
    const row = await sessionRow(stack, jar);
    await stack.context.db.updateTable('sessions').set({ tokens: 'v1.AAAA.BBBB.CCCC' }).where('id_hash', '=', row?.id_hash ?? '').execute();
    await ageRanks('2001', ROLE_RECHECK_MS + 1000);
    expect((await appFetch(stack, jar, PROBE, { method: 'POST' })).status).toBe(401);
  });
});

describe('re-checking while the group API is failing', () => {
  it('removes the rights (fail closed), says so, and restores them once the API is back', async () => {
    const { jar, userId } = await signInAs(stack, 'Leader of the House of Commons');
    await ageRanks(userId, ROLE_RECHECK_MS + 1000);
    stack.devProvider.setGroupApiFailure('rate-limit');
    const during = await appFetch(stack, jar, PROBE, { method: 'POST' });
    expect(during.status).toBe(200);
    expect(during.body.user).toMatchObject({ rank: 0, groups_unavailable: true, can_sign: false });

    // Retry-After (1 s) is honoured: within it, no new check.
    stack.devProvider.setGroupApiFailure('none');
    expect((await appFetch(stack, jar, PROBE, { method: 'POST' })).body.user.groups_unavailable).toBe(true);

    stack.setNow(new Date(Date.now() + 2000));
    expect((await appFetch(stack, jar, PROBE, { method: 'POST' })).body.user).toMatchObject({ rank: 7, groups_unavailable: false });
  });
});

describe('sessions that never held provider tokens', () => {
  it('(made in-process by test harnesses and the benchmark) are not re-checked', async () => {
    await stack.context.users.upsert({ id: '4999', username: 'harness', displayName: 'Harness User', avatarUrl: null, citizenRank: 1, governmentRank: 6 });
    await ageRanks('4999', 24 * 60 * 60 * 1000);
    const { token } = await stack.context.sessions.create('4999', 'web');
    const probe = await appFetch(stack, null, PROBE, { method: 'POST', headers: { cookie: `petitions_session=${token}` } });
    expect(probe.status).toBe(200);
    expect(probe.body.user).toMatchObject({ id: '4999', rank: 6 });
  });
});
