/** Ranks from the group API at sign-in: every persona, odd ranks, and a failing or rate-limited group API. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { appFetch, authorizeAs, signInAs, signInAsCustomUser } from './browser.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
});

afterAll(async () => {
  await stack?.close();
});

afterEach(() => {
  stack.devProvider.setGroupApiFailure('none');
});

async function sessionUser(s: Stack, label: string) {
  const { jar } = await signInAs(s, label);
  const { status, body } = await appFetch(s, jar, '/api/auth/session');
  expect(status).toBe(200);
  return body.user;
}

describe('each persona gets the role its group ranks give', () => {
  const expected = [
    ['Non-citizen', { id: '2002', rank: 0, userType: 'Guest', citizen_rank: 0, government_rank: 0, can_sign: false }],
    ['Citizen', { id: '2001', rank: 1, userType: 'British Citizen', citizen_rank: 1, government_rank: 0, can_sign: true }],
    ['Cabinet Minister', { id: '2006', rank: 6, userType: 'Government Official', citizen_rank: 1, government_rank: 6, can_sign: true }],
    ['Leader of the House of Commons', { id: '2007', rank: 7, userType: 'Government Official', citizen_rank: 1, government_rank: 7, can_sign: true }],
    ['Prime Minister', { id: '2008', rank: 8, userType: 'Government Official', citizen_rank: 1, government_rank: 8, can_sign: true }],
    ['System Administrator', { id: '2000', rank: 9, userType: 'System Administrator', citizen_rank: 1, government_rank: 0, can_sign: true }],
  ] as const;

  for (const [label, fields] of expected) {
    it(label, async () => {
      expect(await sessionUser(stack, label)).toMatchObject({ ...fields, groups_unavailable: false });
    });
  }
});

describe('government ranks that are not offices', () => {
  async function custom(userId: string, citizenRank: number, governmentRank: number) {
    const { callbackUrl, jar } = await authorizeAs(stack, (j, page) =>
      signInAsCustomUser(j, page, { userId, displayName: `Custom ${userId}`, citizenRank, governmentRank }, stack.baseUrl),
    );
    const response = await appFetch(stack, jar, '/api/auth/roblox/callback', {
      method: 'POST',
      body: { code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') },
    });
    expect(response.status).toBe(200);
    return (await appFetch(stack, jar, '/api/auth/session')).body.user;
  }

  it('rank 5 is a plain member: no office, rights from citizenship only', async () => {
    expect(await custom('3005', 1, 5)).toMatchObject({ rank: 1, userType: 'British Citizen', government_rank: 5, can_sign: true });
  });

  it('the group owner rank 255 is not an office either (the administrator is a fixed account)', async () => {
    expect(await custom('3255', 0, 255)).toMatchObject({ rank: 0, userType: 'Guest', government_rank: 255, can_sign: false });
  });

  it('an office holder outside the citizen group holds the office but cannot sign', async () => {
    expect(await custom('3006', 0, 6)).toMatchObject({ rank: 6, userType: 'Government Official', government_rank: 6, can_sign: false });
  });

  it('any citizen-group rank from 1 up makes a citizen', async () => {
    expect(await custom('3100', 200, 0)).toMatchObject({ rank: 1, citizen_rank: 200, can_sign: true });
  });
});

describe('when the group API fails', () => {
  for (const mode of ['rate-limit', 'server-error'] as const) {
    it(`(${mode}) the user still signs in, without group rights, and is told so`, async () => {
      stack.devProvider.setGroupApiFailure(mode);
      const { jar, userId } = await signInAs(stack, 'Prime Minister');
      const { body } = await appFetch(stack, jar, '/api/auth/session');
      expect(body.user).toMatchObject({ id: userId, rank: 0, userType: 'Guest', can_sign: false, citizen_rank: 0, government_rank: 0, groups_unavailable: true });
      const row = await stack.context.users.find(userId);
      expect(row?.groups_unavailable).toBe(1);
      // Rights are gone for real: the server refuses a staff action the Prime Minister could otherwise take.
      const staff = await appFetch(stack, jar, '/api/petitions/1/debate-info', { method: 'POST', body: { status: 'scheduled', date: '2030-01-01' } });
      expect(staff.status).toBe(403);
      expect(staff.body.detail).toBe(ERRORS.debateForbidden);
    });
  }

  it('signing in again once the API is back restores the rights', async () => {
    stack.devProvider.setGroupApiFailure('server-error');
    expect((await sessionUser(stack, 'Cabinet Minister')).groups_unavailable).toBe(true);
    stack.devProvider.setGroupApiFailure('none');
    expect(await sessionUser(stack, 'Cabinet Minister')).toMatchObject({ rank: 6, groups_unavailable: false });
  });
});

describe('the legacy groups endpoint as a fallback (when configured)', () => {
  let legacy: Stack;

  beforeAll(async () => {
    legacy = await startStack({ serveWebApp: false, legacyGroupsFallback: true });
  });

  afterAll(async () => {
    await legacy?.close();
  });

  it('supplies the ranks when Open Cloud is rate-limited', async () => {
    legacy.devProvider.setGroupApiFailure('rate-limit');
    expect(await sessionUser(legacy, 'Leader of the House of Commons')).toMatchObject({ rank: 7, government_rank: 7, citizen_rank: 1, groups_unavailable: false });
  });

  it('is not needed while Open Cloud answers', async () => {
    legacy.devProvider.setGroupApiFailure('none');
    expect(await sessionUser(legacy, 'Citizen')).toMatchObject({ rank: 1, can_sign: true, groups_unavailable: false });
  });
});
