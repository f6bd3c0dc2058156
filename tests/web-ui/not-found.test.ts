/** Unknown petitions and pages answer 404, and the page still shows the right not-found screen. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { seedPetition } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let petitionId = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  petitionId = (await seedPetition(stack.context, { title: 'A petition that is there', termId: null })).id;
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('not found', () => {
  it('an unknown petition answers 404 and shows "Petition Not Found"; a known one 200 and the petition', async () => {
    const { page, errors } = await openPage(browser);
    const missing = await page.goto(`${stack.baseUrl}/petition/987654`);
    expect(missing?.status()).toBe(404);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Petition Not Found' })).toBeVisible();
    await expectAccessible(page, 'petition not found');

    const malformed = await page.goto(`${stack.baseUrl}/petition/not-a-number`);
    expect(malformed?.status()).toBe(404);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Petition Not Found' })).toBeVisible();

    const present = await page.goto(`${stack.baseUrl}/petition/${petitionId}`);
    expect(present?.status()).toBe(200);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'A petition that is there' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  it('an unknown page answers 404 and shows "Page Not Found"', async () => {
    const { page } = await openPage(browser);
    const response = await page.goto(`${stack.baseUrl}/no/such/page`);
    expect(response?.status()).toBe(404);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    expect(await page.title()).toContain('Page Not Found');
  });
});
