/**
 * An open page follows the site's state: an idle page shows "Site Under Maintenance" within 5 s of
 * it being switched on and returns within 5 s of it being switched off (live stream); with the
 * stream cut, regaining focus or visibility re-checks at once; the open petition's count goes live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { LIVE_EVENTS_PATH } from '../../src-shared/domain/constants.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

const WITHIN_MS = 5_000;

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context);
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const maintenanceHeading = (page: Page) => page.getByRole('heading', { name: 'Site Under Maintenance' });
const homeHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Petitions' });

async function setMaintenance(on: boolean): Promise<void> {
  await stack.context.siteSettings.setMaintenance(on);
}

describe('live site state', () => {
  it('an idle page shows maintenance within 5 s and comes back within 5 s of it being switched off', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(homeHeading(page)).toBeVisible();
    // Idle for a while first, as the citizen in the report was.
    await page.waitForTimeout(1_500);

    await setMaintenance(true);
    try {
      await expectOnPage(maintenanceHeading(page)).toBeVisible({ timeout: WITHIN_MS });
    } finally {
      await setMaintenance(false);
    }
    await expectOnPage(homeHeading(page)).toBeVisible({ timeout: WITHIN_MS });
    expect(await maintenanceHeading(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('without the stream, regaining focus or visibility re-checks the site state at once', async () => {
    const { page } = await openPage(browser);
    // A proxy that cuts the stream: the page must still catch up when the user comes back.
    await page.route(`**${LIVE_EVENTS_PATH}**`, (route) => route.abort());
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(homeHeading(page)).toBeVisible();
    await page.waitForTimeout(1_200);

    await setMaintenance(true);
    try {
      // Well past a tick of the (cut) stream, well before the 30 s poll.
      await page.waitForTimeout(1_500);
      expect(await maintenanceHeading(page).count()).toBe(0);
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await expectOnPage(maintenanceHeading(page)).toBeVisible({ timeout: 2_000 });
    } finally {
      await setMaintenance(false);
    }
    await page.waitForTimeout(1_200);
    expect(await maintenanceHeading(page).count()).toBe(1);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expectOnPage(homeHeading(page)).toBeVisible({ timeout: 2_000 });
  });

  it('a hidden tab holds no stream and takes one again when visible', async () => {
    const { page } = await openPage(browser);
    const before = stack.context.live.stats().subscribers;
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(homeHeading(page)).toBeVisible();
    await expect.poll(() => stack.context.live.stats().subscribers).toBe(before + 1);
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    await setVisibility('hidden');
    await expect.poll(() => stack.context.live.stats().subscribers).toBe(before);
    await setVisibility('visible');
    await expect.poll(() => stack.context.live.stats().subscribers).toBe(before + 1);
  });

  it("the open petition's signature count follows the server live", async () => {
    const petition = await seedPetition(stack.context, { title: 'A petition with a live count', signatures: 4 });
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petition/${petition.id}`);
    const count = page.locator('.petition__count .big-number');
    await expectOnPage(page.getByRole('heading', { level: 1, name: petition.title })).toBeVisible();
    expect(await count.textContent()).toBe('4');

    // Changed elsewhere (another node, or signatures the page did not make).
    await stack.context.db.updateTable('petitions').set({ signature_count: 7 }).where('id', '=', petition.id).execute();
    await page.waitForFunction(() => document.querySelector('.petition__count .big-number')?.textContent === '7', undefined, {
      timeout: WITHIN_MS,
    });
  });
});
