/**
 * Account signals through the real sign-in (docs/integrity.md#account-signals): the development
 * provider's custom user carries the account age and verified flag typed in; the server stores
 * them with the user at each sign-in (refreshed, never erased by a sign-in that does not say) and
 * the minimum account age then refuses or lets the member sign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { appFetch, authorizeAs, CookieJar, signInAsCustomUser } from './browser.ts';

let stack: Stack;
let petitionId: number;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  await seedTerm(stack.context);
  petitionId = (await seedPetition(stack.context, { title: 'Signals petition' })).id;
});

afterAll(() => stack?.close());

async function signInCustom(userId: string, accountAgeDays: number, verified: boolean): Promise<CookieJar> {
  const jar = new CookieJar();
  const { callbackUrl } = await authorizeAs(
    stack,
    (j, page) => signInAsCustomUser(j, page, { userId, displayName: `Member ${userId}`, citizenRank: 1, governmentRank: 0, accountAgeDays, verified }, stack.baseUrl),
    jar,
  );
  const callback = await appFetch(stack, jar, '/api/auth/roblox/callback', {
    method: 'POST',
    body: { code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') },
  });
  expect(callback.status, JSON.stringify(callback.body)).toBe(200);
  return jar;
}

const stored = (id: string) => stack.context.db.selectFrom('users').select(['account_created_at', 'account_verified']).where('id', '=', id).executeTakeFirstOrThrow();

describe('account signals at sign-in', () => {
  it('stores the account age and verified flag, refreshes them at the next sign-in, and the age rule reads them', async () => {
    stack.context.config.integrity.minAccountAgeDays = 7;
    const young = await signInCustom('4102', 2, true);
    const first = await stored('4102');
    expect(Math.abs(Date.parse(first.account_created_at!) - (Date.now() - 2 * 86_400_000))).toBeLessThan(120_000);
    expect(first.account_verified).toBe(1);
    const refused = await appFetch(stack, young, `/api/petitions/${petitionId}/sign`, { method: 'POST', body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/^Your ROBLOX account must be at least 7 days old to sign petitions\. You can sign from \d{1,2} [A-Z][a-z]+ \d{4}\.$/);

    const older = await signInCustom('4102', 40, false);
    const second = await stored('4102');
    expect(Math.abs(Date.parse(second.account_created_at!) - (Date.now() - 40 * 86_400_000))).toBeLessThan(120_000);
    expect(second.account_verified).toBe(0);
    const signed = await appFetch(stack, older, `/api/petitions/${petitionId}/sign`, { method: 'POST', body: {} });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    stack.context.config.integrity.minAccountAgeDays = 0;
  });
});
