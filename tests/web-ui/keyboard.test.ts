/** Keyboard-only journeys: skip link, signing, and creating a petition without a mouse. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { VALID_DESCRIPTION, tabUntil } from './helpers.ts';
import { expectOnPage, launchBrowser, openSharedPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let page: Page;
let petitionId = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context, { name: 'Term 87' });
  petitionId = (await seedPetition(stack.context, { title: 'Longer opening hours for the bank', signatures: 5 })).id;
  ({ page } = await openSharedPage(browser));
  await stack.signIn(page, 'Citizen');
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const activeTag = (p: Page) => p.evaluate(() => document.activeElement?.tagName.toLowerCase() ?? '');

describe('keyboard-only journeys', () => {
  it('the first Tab reaches the skip link, which moves focus to the main content', async () => {
    await page.goto(`${stack.baseUrl}/petitions`);
    await expectOnPage(page.locator('main h1')).toBeVisible();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
  });

  it('reaches a petition and signs it with the keyboard', async () => {
    await page.goto(`${stack.baseUrl}/petitions`);
    await expectOnPage(page.getByRole('link', { name: 'Longer opening hours for the bank' })).toBeVisible();
    await tabUntil(page, (f) => f.tag === 'a' && f.name === 'Longer opening hours for the bank');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/petition/${petitionId}$`));
    // Focus is on the page heading after the route change; continue from there once the button is drawn, as a
    // keyboard user who sees it would (a member's part of the sign section is a chunk of its own).
    await expect.poll(() => activeTag(page)).toBe('h1');
    await expectOnPage(page.getByRole('button', { name: 'Sign this petition' })).toBeVisible();
    await tabUntil(page, (f) => f.tag === 'button' && f.name === 'Sign this petition');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByRole('button', { name: 'Remove signature' })).toBeVisible();
    // Focus stays on the same button, now offering removal.
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText)).toBe('Remove signature');
    await page.keyboard.press('Space');
    await expectOnPage(page.getByRole('button', { name: 'Sign this petition' })).toBeVisible();
  });

  it('creates a petition with the keyboard, using the error summary links', async () => {
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByLabel('Title')).toBeVisible();
    await tabUntil(page, (f) => f.tag === 'button' && f.name === 'Create petition');
    await page.keyboard.press('Enter');
    await expectOnPage(page.locator('.error-summary')).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('error-summary'))).toBe(true);
    // Tab into the summary; its first link jumps to the title field.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText)).toBe(VALIDATION.titleRequired);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('petition-title');

    await page.keyboard.type('Free buses on election day');
    await page.keyboard.press('Tab'); // first tag chip
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText)).toBe('Budget');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // Business
    await page.keyboard.press('Tab'); // Civil Service
    await page.keyboard.press('Tab'); // Defence
    await page.keyboard.press('Tab'); // Democracy
    await page.keyboard.press('Enter');
    expect(await page.locator('.chip[aria-pressed="true"]').allInnerTexts()).toEqual(['✓ Budget', '✓ Democracy']);
    await tabUntil(page, (f) => f.id === 'petition-description');
    await page.keyboard.type(VALID_DESCRIPTION);
    await tabUntil(page, (f) => f.tag === 'button' && f.name === 'Create petition');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByText('Petition created successfully!', { exact: false })).toBeVisible();
    await page.waitForURL(/\/petition\/\d+$/, { timeout: 6_000 });
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Free buses on election day' })).toBeVisible();
    await expect.poll(() => activeTag(page)).toBe('h1');
  });
});
