/**
 * Signers hear back, in Chromium against the real server: a Citizen signs, a Cabinet Minister
 * answers in the web panel (which first says how many signers it will notify) and the Citizen's
 * idle page shows one more unread within 2 s; the Prime Minister answers another petition from
 * the console (its outbox and sync against the real backend) and the idle page follows again. The
 * panel names the petition and the response, My petitions lists it under Signed with "Government
 * responded", and the notifications page mutes, saves preferences and marks all read. axe-core on
 * the panel, My petitions and the notifications page with its settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { StaffActionSchema } from '../../src-shared/console/staff-actions.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage, openSharedPage } from '../support/chromium.ts';
import { consoleSignIn, RecordingEvents, TestAuth, tempDir } from '../console-core/support.ts';

const WITHIN_MS = 2_000;

let stack: Stack;
let browser: Browser;
let citizen: Page;
let minister: Page;
let webPetition: number;
let consolePetition: number;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context);
  webPetition = (await seedPetition(stack.context, { title: 'Light every village green', signatures: 12 })).id;
  consolePetition = (await seedPetition(stack.context, { title: 'Plant a tree for every pupil', signatures: 3 })).id;
  citizen = (await openSharedPage(browser)).page;
  await stack.signIn(citizen, 'Citizen');
  minister = (await openSharedPage(browser)).page;
  await stack.signIn(minister, 'Cabinet Minister');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const bell = (page: Page) => page.locator('header').getByRole('button', { name: /^Notifications, / });

async function sign(page: Page, petitionId: number): Promise<void> {
  await page.goto(`${stack.baseUrl}/petition/${petitionId}`);
  await page.getByRole('button', { name: 'Sign this petition' }).click();
  await expectOnPage(page.getByRole('button', { name: 'Remove signature' })).toBeVisible();
}

/** Waits until the button's accessible name says `unread`, and returns how long after `since` it did. */
async function unreadShown(page: Page, unread: number, since: number): Promise<number> {
  const name = unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;
  await expectOnPage(page.locator('header').getByRole('button', { name, exact: true })).toBeVisible({ timeout: 5_000 });
  return performance.now() - since;
}

describe('a signer hears back without reloading', () => {
  it('shows one more unread within 2 s of a minister answering in the web panel', async () => {
    await sign(citizen, webPetition);
    await sign(citizen, consolePetition);
    await citizen.goto(`${stack.baseUrl}/`);
    await unreadShown(citizen, 0, performance.now());
    await citizen.waitForTimeout(1_200);

    await minister.goto(`${stack.baseUrl}/petition/${webPetition}`);
    const panel = minister.getByRole('region', { name: 'Government Admin Panel' });
    // 12 seeded signers and the Citizen; the minister did not sign.
    await expectOnPage(panel.getByText('This will notify 13 signers', { exact: true })).toBeVisible();
    await panel.getByLabel('Government response', { exact: true }).fill('The Government will light every village green by winter.');
    await panel.getByLabel('Your government role').selectOption('Home Secretary');
    const saved = minister.waitForResponse((r) => r.url().endsWith(`/api/petitions/${webPetition}/government-response`) && r.request().method() === 'POST');
    await panel.getByRole('button', { name: 'Submit Response' }).click();
    expect((await saved).status()).toBe(200);
    const elapsed = await unreadShown(citizen, 1, performance.now());
    expect(elapsed).toBeLessThan(WITHIN_MS);
    // The live region says so too.
    await expect.poll(() => citizen.locator('header [aria-live="polite"]').textContent()).toBe('You have 1 unread notification');
  });

  it('and within 2 s of the console applying a Prime Minister’s queued answer', async () => {
    const session = await consoleSignIn(stack, 'Prime Minister');
    const core = createConsoleCore({ dataDir: tempDir('notify-console-'), apiBaseUrl: stack.baseUrl, auth: new TestAuth(session), events: new RecordingEvents() });
    try {
      await core.handlers['outbox:enqueue']({
        actions: [
          StaffActionSchema.parse({
            kind: 'response.save',
            petitionId: consolePetition,
            baseVersion: 1,
            body: { response_text: 'Every pupil will plant a tree this spring.', added_by_role: 'Education Secretary' },
          }),
        ],
        batch: false,
      });
      core.start();
      await core.whenIdle();
      const applied = performance.now();
      expect((await core.handlers['outbox:list']({ limit: 10 })).entries.map((e) => e.state)).toEqual(['applied']);
      expect(await unreadShown(citizen, 2, applied)).toBeLessThan(WITHIN_MS);
    } finally {
      await core.close();
    }
  });

  it('the panel names the petitions and the responses, newest first', async () => {
    await bell(citizen).click();
    const panel = citizen.getByRole('region', { name: 'Notifications' });
    await expectOnPage(panel.getByText('2 unread')).toBeVisible();
    const items = panel.locator('.feed-item');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.nth(0).getByRole('link').textContent()).toBe('Plant a tree for every pupil');
    expect(await items.nth(1).getByRole('link').textContent()).toBe('Light every village green');
    expect(await items.nth(0).textContent()).toMatch(/Government responded on \d{1,2} [A-Z][a-z]+ \d{4}/);
    expect(await bell(citizen).getAttribute('aria-expanded')).toBe('true');
    await expectAccessible(citizen, 'notifications panel');
    await citizen.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await citizen.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Notifications, 2 unread');
  });

  it('My petitions lists it under Signed with "Government responded"', async () => {
    await citizen.locator('header').getByRole('link', { name: 'My petitions' }).click();
    await expectOnPage(citizen.getByRole('heading', { level: 1, name: 'My petitions' })).toBeVisible();
    await citizen.getByRole('link', { name: 'Signed' }).click();
    await citizen.waitForURL(/list=signed/);
    const item = citizen.locator('.mine-item').filter({ hasText: 'Light every village green' });
    await expectOnPage(item).toBeVisible();
    expect(await item.textContent()).toMatch(/Latest: Government responded on /);
    expect(await item.locator('.badge').textContent()).toBe('Government responded');
    await expectAccessible(citizen, 'My petitions, Signed');
  });
});

describe('the notifications page', () => {
  it('stops updates for a petition, saves preferences and marks all read', async () => {
    await citizen.goto(`${stack.baseUrl}/notifications`);
    await expectOnPage(citizen.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await expectOnPage(citizen.getByText('2 unread')).toBeVisible();
    await expectAccessible(citizen, 'notifications page with settings');

    await citizen.getByRole('button', { name: /^Stop updates for this petition\s*: Plant a tree for every pupil$/ }).click();
    await unreadShown(citizen, 1, performance.now());
    const muted = citizen.getByRole('region', { name: 'Petitions you stopped updates for' });
    await expectOnPage(muted.getByRole('link', { name: 'Plant a tree for every pupil' })).toBeVisible();

    await citizen.getByLabel('Government responses').uncheck();
    await citizen.getByRole('button', { name: 'Save settings' }).click();
    await expectOnPage(citizen.getByText('Your notification settings were saved.')).toBeVisible();
    await unreadShown(citizen, 0, performance.now());
    await citizen.getByLabel('Government responses').check();
    await citizen.getByRole('button', { name: 'Save settings' }).click();
    await unreadShown(citizen, 1, performance.now());

    await citizen.getByRole('button', { name: 'Mark all as read' }).click();
    await unreadShown(citizen, 0, performance.now());
    await expectOnPage(citizen.getByText('All caught up')).toBeVisible();
    expect(await citizen.locator('.feed-item--unread').count()).toBe(0);
    await expectAccessible(citizen, 'notifications page, all read');
  });

  it('asks a visitor to sign in', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/my-petitions`);
    await expectOnPage(page.getByRole('heading', { name: 'Sign in to see your petitions' })).toBeVisible();
    expect(await page.locator('header').getByRole('link', { name: 'My petitions' }).count()).toBe(0);
    expect(await bell(page).count()).toBe(0);
    await expectAccessible(page, 'My petitions, signed out');
  });
});
