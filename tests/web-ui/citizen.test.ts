/**
 * A British Citizen: sign in with the provider's persona button, create a petition through every
 * validation message, success and redirect (auto-signed), sign and remove, and the daily limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { VALID_DESCRIPTION, apiPost } from './helpers.ts';
import { expectAccessible, expectOnPage, launchBrowser, openSharedPage, type TestPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let session: TestPage;
let page: Page;
let signable = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context, { name: 'Term 87' });
  signable = (
    await seedPetition(stack.context, {
      title: 'Fund the national parade',
      description: 'A yearly parade in the capital would bring every citizen of the group together.',
      tags: ['Budget'],
      signatures: 9,
    })
  ).id;
  // One signed-in page for the whole file: the journeys follow each other like one visit.
  session = await openSharedPage(browser);
  page = session.page;
  await stack.signIn(page, 'Citizen');
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function summaryMessages(p: Page): Promise<string[]> {
  await expectOnPage(p.locator('.error-summary')).toBeVisible();
  return p.locator('.error-summary li').allInnerTexts();
}

describe('citizen journeys', () => {
  it('shows the signed-in user in the header', async () => {
    const header = page.locator('header');
    await expectOnPage(header.getByText('Casey Citizen', { exact: true })).toBeVisible();
    await expectOnPage(header.getByText('British Citizen', { exact: true })).toBeVisible();
    await expectOnPage(header.getByRole('button', { name: 'Logout' })).toBeVisible();
    expect(await header.getByRole('link', { name: 'Manage Terms' }).count()).toBe(0);
    await expectOnPage(page.getByText("When you create a petition, you'll be the first to automatically sign it.")).toBeVisible();
    await expectAccessible(page, 'home (citizen)');
  });

  it('creates a petition through every validation message, then succeeds and is redirected', async () => {
    await page.getByRole('link', { name: 'Start a petition' }).first().click();
    await page.waitForURL(/\/create-petition$/);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Start a petition' })).toBeVisible();
    const title = page.getByLabel('Title');
    const description = page.getByLabel('Description');
    const submit = page.getByRole('button', { name: 'Create petition' });

    await submit.click();
    expect(await summaryMessages(page)).toEqual([
      VALIDATION.titleRequired,
      VALIDATION.tagsRequired,
      VALIDATION.descriptionRequired,
    ]);
    // The summary takes focus so screen readers announce it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('error-summary'))).toBe(true);
    await expectAccessible(page, 'create petition (errors)');

    await title.fill('Roads');
    await title.fill('Road');
    await description.fill('Too short');
    await submit.click();
    await expect.poll(() => summaryMessages(page)).toContain(VALIDATION.titleTooShort);
    expect(await summaryMessages(page)).toContain(VALIDATION.descriptionTooShort);

    await title.fill('x'.repeat(151));
    await expectOnPage(page.getByText('151/150')).toBeVisible();
    await description.fill('y'.repeat(1001));
    await expectOnPage(page.getByText('1001/1000')).toBeVisible();
    await submit.click();
    await expect.poll(() => summaryMessages(page)).toContain(VALIDATION.titleTooLong);
    expect(await summaryMessages(page)).toContain(VALIDATION.descriptionTooLong);

    // Six tags: the sixth selection is ignored (so 'Maximum 5 tags allowed' cannot be reached here).
    for (const tag of ['Budget', 'Business', 'Civil Service', 'Defence', 'Democracy', 'Laws']) {
      await page.getByRole('button', { name: tag, exact: true }).click();
    }
    expect(await page.locator('.chip[aria-pressed="true"]').count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Laws', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await expectOnPage(page.getByText('5 of 5 selected')).toBeVisible();
    for (const tag of ['Business', 'Civil Service', 'Defence', 'Democracy']) {
      await page.getByRole('button', { name: tag, exact: true }).click();
    }

    await title.fill('Build a public library in the capital');
    await expectOnPage(page.getByText('37/150')).toBeVisible();
    await description.fill(VALID_DESCRIPTION);
    await submit.click();
    await expectOnPage(page.getByText('Petition created successfully!', { exact: false })).toBeVisible();
    await page.waitForURL(/\/petition\/\d+$/, { timeout: 6_000 });
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Build a public library in the capital' })).toBeVisible();
    // The creator signed automatically.
    await expectOnPage(page.getByRole('button', { name: 'Remove signature' })).toBeVisible();
    await expectOnPage(page.locator('.signers').getByText('Casey Citizen')).toBeVisible();
    expect(await page.locator('.petition__count').innerText()).toMatch(/^1\s+signature$/);
    await expectAccessible(page, 'petition detail (own petition)');
  });

  it('signs and removes a signature, with the busy labels', async () => {
    await page.goto(`${stack.baseUrl}/petition/${signable}`);
    const count = page.locator('.petition__count');
    await expect.poll(() => count.innerText()).toMatch(/^9\s+signatures$/);
    // Slow the call down a little so the busy label can be seen.
    await page.route('**/api/petitions/*/sign', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign this petition' }).click();
    await expectOnPage(page.getByRole('button', { name: 'Signing...' })).toBeVisible();
    await expectOnPage(page.getByRole('button', { name: 'Remove signature' })).toBeVisible();
    await expect.poll(() => count.innerText()).toMatch(/^10\s+signatures$/);
    await expectOnPage(page.getByText('You have signed this petition.')).toBeVisible();
    await expectOnPage(page.getByText('This petition has reached 10 signatures and will receive a government response.')).toBeVisible();
    await expectOnPage(page.locator('.signers').getByText('Casey Citizen')).toBeVisible();
    await page.unroute('**/api/petitions/*/sign');
    await expectAccessible(page, 'petition detail (signed)');

    await page.getByRole('button', { name: 'Remove signature' }).click();
    await expectOnPage(page.getByRole('button', { name: 'Sign this petition' })).toBeVisible();
    await expect.poll(() => count.innerText()).toMatch(/^9\s+signatures$/);
    await expectOnPage(page.getByText('Your signature has been removed.')).toBeVisible();
  });

  it('stops at three petitions a day: the fourth is refused and the form is disabled', async () => {
    // One petition was created above; make the second through the API as the same user.
    const second = await apiPost(page, stack.baseUrl, '/api/petitions', {
      title: 'Second petition of the day',
      description: VALID_DESCRIPTION,
      tags: ['Budget'],
    });
    expect(second.status()).toBe(201);

    // The form is open with one creation left…
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByLabel('Title')).toBeVisible();
    expect(await page.getByLabel('Title').isDisabled()).toBe(false);
    // …when the third is made elsewhere (another tab).
    const third = await apiPost(page, stack.baseUrl, '/api/petitions', {
      title: 'Third petition of the day',
      description: VALID_DESCRIPTION,
      tags: ['Laws'],
    });
    expect(third.status()).toBe(201);

    // The fourth, from the stale form, is refused by the server with 429.
    await page.getByLabel('Title').fill('Fourth petition of the day');
    await page.getByRole('button', { name: 'Parliament', exact: true }).click();
    await page.getByLabel('Description').fill(VALID_DESCRIPTION);
    await page.getByRole('button', { name: 'Create petition' }).click();
    await expectOnPage(page.getByText(ERRORS.dailyLimit)).toBeVisible();
    expect(await page.getByLabel('Title').isDisabled()).toBe(true);
    await expectAccessible(page, 'create petition (daily limit)');

    // A fresh visit shows the banner straight away, from the server's allowance.
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByText(ERRORS.dailyLimit)).toBeVisible();
    expect(await page.getByRole('button', { name: 'Create petition' }).isDisabled()).toBe(true);
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(page.getByText('Rate Limit: You can create 3 petitions per day')).toBeVisible();
    await expectAccessible(page, 'home (rate limited)');
  });

  it('logs out', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectOnPage(page.getByRole('button', { name: 'Login with ROBLOX' })).toBeVisible();
    expect(session.errors).toEqual([]);
  });
});
