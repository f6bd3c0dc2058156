/**
 * A banned citizen is told before typing: the home page's start block and the create page show the
 * ban with the administrator's reason instead of a form that would only fail on submit. Lifting the
 * ban brings the form back.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { DEV_PERSONAS } from '../../src-server/dev/provider/index.ts';
import { seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openSharedPage } from '../support/chromium.ts';

const REASON = 'Repeated spam petitions';
let stack: Stack;
let browser: Browser;
let page: Page;
let citizenId: string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context, { name: 'Term 87' });
  citizenId = DEV_PERSONAS.find((p) => p.label === 'Citizen')?.id ?? '';
  await stack.context.db
    .insertInto('bans')
    .values({ user_id: citizenId, reason: REASON, banned_by: stack.context.config.adminUserId ?? '0', banned_at: new Date().toISOString() })
    .execute();
  page = (await openSharedPage(browser)).page;
  await stack.signIn(page, 'Citizen');
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('a banned citizen', () => {
  it('sees the ban and its reason on the home page, with no way to start a petition', async () => {
    await page.goto(`${stack.baseUrl}/`);
    const start = page.locator('.start-block');
    await expectOnPage(start.getByText(`${ERRORS.banned}.`)).toBeVisible();
    await expectOnPage(start.getByText(`Reason: ${REASON}`)).toBeVisible();
    expect(await start.getByRole('button', { name: 'Banned from creating petitions' }).isDisabled()).toBe(true);
    expect(await start.getByRole('link', { name: 'Start a petition' }).count()).toBe(0);
    await expectAccessible(page, 'home (banned)');
  });

  it('sees the ban on the create page instead of an enabled form', async () => {
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.locator('.ban-notice').getByText(`${ERRORS.banned}.`)).toBeVisible();
    await expectOnPage(page.locator('.ban-notice').getByText(`Reason: ${REASON}`)).toBeVisible();
    expect(await page.getByLabel('Title').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /Create petition/i }).isDisabled()).toBe(true);
    await expectAccessible(page, 'create (banned)');
  });

  it('gets the form back once the ban is lifted', async () => {
    await stack.context.db.deleteFrom('bans').where('user_id', '=', citizenId).execute();
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByLabel('Title')).toBeVisible();
    await expect.poll(() => page.getByLabel('Title').isEnabled()).toBe(true);
    expect(await page.locator('.ban-notice').count()).toBe(0);
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(page.locator('.start-block').getByRole('link', { name: 'Start a petition' })).toBeVisible();
  });
});
