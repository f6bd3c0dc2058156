/**
 * Signature integrity in a real browser against the real server (docs/integrity.md): with
 * MIN_ACCOUNT_AGE_DAYS=7 a 2-day-old account signed in through the development provider's custom
 * user is told on the petition page and the create page before it tries, and a 40-day-old one signs;
 * then the administrator sees ten young accounts' signatures on the unusual-signing table, previews
 * and invalidates them, and restores them, in the web staff panel. axe-core checks each screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { expectAccessible, launchBrowser, openPage } from '../support/chromium.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { LOGIN_BUTTON_LABEL, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let browser: Browser;
let petition: { id: number; title: string };

/** Signs in through the development provider's custom-user form, as a newcomer would try an alternate account. */
async function signInCustom(page: Page, user: { id: string; name: string; ageDays: number }): Promise<void> {
  await page.goto(`${stack.baseUrl}/`);
  await page.locator('header').getByRole('button', { name: LOGIN_BUTTON_LABEL }).click();
  await page.waitForURL((url) => url.href.startsWith(stack.providerUrl));
  await page.getByLabel('User id').fill(user.id);
  await page.getByLabel('Display name').fill(user.name);
  await page.getByLabel('Account age in days').fill(String(user.ageDays));
  await page.getByRole('button', { name: 'Sign in as custom user' }).click();
  await page.waitForURL((url) => url.href.startsWith(stack.baseUrl));
  await page.locator('header').getByText(user.name, { exact: true }).waitFor();
}

async function petitionCount(id: number): Promise<number> {
  const row = await stack.context.db.selectFrom('petitions').select('signature_count').where('id', '=', id).executeTakeFirstOrThrow();
  return row.signature_count;
}

beforeAll(async () => {
  stack = await startStack();
  await seedTerm(stack.context);
  petition = await seedPetition(stack.context, { title: 'Rename the harbour', signatures: 1 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('the minimum account age, in the browser', () => {
  it('tells a 2-day-old account before it tries, on the petition and the create page, and lets a 40-day-old one sign', async () => {
    stack.context.config.integrity.minAccountAgeDays = 7;
    const young = await openPage(browser);
    await signInCustom(young.page, { id: '4201', name: 'Newcomer Alt', ageDays: 2 });
    await young.page.goto(`${stack.baseUrl}/petition/${petition.id}`);
    const notice = young.page.getByText(/^Your ROBLOX account must be at least 7 days old to sign petitions\. You can sign from \d{1,2} [A-Z][a-z]+ \d{4}\.$/);
    await notice.waitFor();
    expect(await young.page.getByRole('button', { name: 'Sign this petition' }).count()).toBe(0);
    await expectAccessible(young.page, 'petition page, account too young');

    await young.page.goto(`${stack.baseUrl}/create-petition`);
    await young.page.getByText(/^Your ROBLOX account must be at least 7 days old to create petitions\. You can create petitions from /).waitFor();
    expect(await young.page.getByLabel('Title').isDisabled()).toBe(true);
    await expectAccessible(young.page, 'create page, account too young');

    const old = await openPage(browser);
    await signInCustom(old.page, { id: '4240', name: 'Settled Member', ageDays: 40 });
    await old.page.goto(`${stack.baseUrl}/petition/${petition.id}`);
    await old.page.getByRole('button', { name: 'Sign this petition' }).click();
    await old.page.getByText('You have signed this petition.').waitFor();
    expect(await petitionCount(petition.id)).toBe(2);
    expect([...young.errors, ...old.errors]).toEqual([]);
    stack.context.config.integrity.minAccountAgeDays = 0;
  }, 120_000);
});

describe('the web staff panel', () => {
  it('shows unusual signing, invalidates with a preview, and restores', async () => {
    // Ten accounts 10 days old sign within half a minute, over the API as their browsers would.
    for (let i = 0; i < 10; i += 1) {
      const id = String(4300 + i);
      await stack.context.users.upsert({
        id,
        username: `alt${i}`,
        displayName: `Alt ${i}`,
        avatarUrl: null,
        citizenRank: 1,
        governmentRank: 0,
        accountCreatedAt: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      });
      const { token } = await stack.context.sessions.create(id, 'web');
      const signed = await fetch(`${stack.baseUrl}/api/petitions/${petition.id}/sign`, {
        method: 'POST',
        headers: { cookie: `${stack.context.cookie.name}=${token}`, [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: stack.baseUrl },
      });
      expect(signed.status).toBe(200);
    }
    const before = await petitionCount(petition.id);
    expect(before).toBe(12);
    stack.setNow(new Date(Date.now() + 10_000));
    expect((await stack.context.integrity.monitor.scan()).alerted).toEqual([petition.id]);
    stack.setNow(null);

    const { page, errors } = await openPage(browser);
    await stack.signIn(page, 'System Administrator');
    await page.goto(`${stack.baseUrl}/term-management`);
    const section = page.getByRole('region', { name: 'Signature integrity', exact: true });
    const row = section.getByRole('row').filter({ hasText: 'Rename the harbour' });
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain('A burst within one minute');
    await expectAccessible(page, 'signature integrity: unusual signing');

    await row.getByRole('button', { name: /Review signatures/ }).click();
    // The form fills itself in an effect after the click's render: wait for it.
    await expect.poll(() => section.getByLabel('Petition id').inputValue()).toBe(String(petition.id));
    await expect.poll(() => section.getByLabel('Accounts younger than (days)').inputValue()).toBe('30');
    await section.getByRole('button', { name: 'Preview', exact: true }).click();
    await section.getByRole('heading', { name: '10 signatures on 1 petition match' }).waitFor();
    await expect.poll(() => section.getByRole('table', { name: 'What the invalidation does to each petition' }).innerText()).toContain('Awaiting government response');
    await expectAccessible(page, 'signature integrity: preview');

    await section.getByLabel('Reason (recorded in the audit log)').fill('Ten alternate accounts in one minute');
    await section.getByRole('button', { name: 'Invalidate 10 signatures' }).click();
    await section.getByText(/^Invalidation #\d+ requested: it runs in the background\.$/).waitFor();
    await stack.context.integrity.runner.runUntilIdle();
    expect(await petitionCount(petition.id)).toBe(2);
    const job = section.getByRole('listitem').filter({ hasText: /^Invalidation #\d+: Finished/ });
    await job.waitFor({ timeout: 20_000 });
    await expect.poll(() => job.innerText()).toContain('10 of 10 signatures invalidated, 1 petition changed');
    await expectAccessible(page, 'signature integrity: finished job');

    await job.getByRole('button', { name: /Restore signatures/ }).click();
    await job.getByLabel(/Reason for restoring/).fill('Checked: genuine members');
    await job.getByRole('button', { name: 'Restore', exact: true }).click();
    await section.getByText(/^Restore of Invalidation #\d+ requested\.$/).waitFor();
    await stack.context.integrity.runner.runUntilIdle();
    expect(await petitionCount(petition.id)).toBe(before);
    await section.getByRole('listitem').filter({ hasText: /^Restore #\d+ of invalidation #\d+: Finished/ }).waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
  }, 150_000);
});
