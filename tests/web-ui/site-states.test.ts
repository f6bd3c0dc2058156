/**
 * Site-wide states: Parliament not in session, maintenance mode (administrator exempt), and the
 * OAuth error messages after a failed return from the provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { seedPetition } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let petitionId = 0;

beforeAll(async () => {
  // No term at all: Parliament is not in session.
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  petitionId = (await seedPetition(stack.context, { title: 'A petition from no term', termId: null, signatures: 1 })).id;
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('site states', () => {
  it('not in session: red banner and the start block says so; the create page too', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(page.getByText('Parliament is not currently in session')).toBeVisible();
    await expectOnPage(page.getByText('Parliament Not In Session: New petitions cannot be created at this time.')).toBeVisible();
    await expectOnPage(
      page.getByText('Petitions can only be created when Parliament is in session. Please check back when the next parliamentary term begins.'),
    ).toBeVisible();
    expect(await page.getByRole('button', { name: 'Parliament Not In Session' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'home (not in session)');

    await stack.signIn(page, 'Citizen');
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByText('Parliament Not In Session: New petitions cannot be created at this time.')).toBeVisible();
    expect(await page.getByLabel('Title').count()).toBe(0);
    await expectAccessible(page, 'create petition (not in session)');
  });

  it('maintenance: everyone but the administrator sees the maintenance screen', async () => {
    await stack.context.siteSettings.setMaintenance(true);
    try {
      const visitor = await openPage(browser);
      await visitor.page.goto(`${stack.baseUrl}/petitions`);
      await expectOnPage(visitor.page.getByRole('heading', { name: 'Site Under Maintenance' })).toBeVisible();
      await expectOnPage(visitor.page.getByText('a few minutes', { exact: false })).toBeVisible();
      await expectAccessible(visitor.page, 'maintenance screen');
      await visitor.context.close();

      const admin = await openPage(browser);
      await admin.page.goto(`${stack.baseUrl}/`);
      await expectOnPage(admin.page.getByRole('heading', { name: 'Site Under Maintenance' })).toBeVisible();
      // Slow the code exchange a little so the 'Completing Sign In' overlay can be seen.
      await admin.page.route('**/api/auth/roblox/callback', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await route.continue();
      });
      await Promise.all([
        stack.signIn(admin.page, 'System Administrator'),
        expectOnPage(admin.page.getByText('Completing Sign In', { exact: true })).toBeVisible({ timeout: 15_000 }),
      ]);
      await admin.page.unroute('**/api/auth/roblox/callback');
      await expectOnPage(admin.page.getByText('Maintenance mode is on.', { exact: false })).toBeVisible();
      await expectOnPage(admin.page.getByRole('heading', { level: 1, name: 'Petitions' })).toBeVisible();
      await expectOnPage(admin.page.locator('header').getByText('System Administrator', { exact: true })).toBeVisible();
      await expectOnPage(admin.page.locator('header').getByRole('link', { name: 'Manage Terms' })).toBeVisible();
      expect(await admin.page.getByRole('heading', { name: 'Site Under Maintenance' }).count()).toBe(0);
      await admin.context.close();
    } finally {
      await stack.context.siteSettings.setMaintenance(false);
    }
  });

  it('OAuth errors are reported on the home page', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/auth/callback?error=access_denied&error_description=The%20user%20cancelled`);
    await page.waitForURL(`${stack.baseUrl}/`);
    await expectOnPage(page.getByText('Authentication failed: access_denied - The user cancelled')).toBeVisible();
    // The notice can appear before the home page has finished rendering; axe checks the finished page.
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Petitions' })).toBeVisible();
    await expectAccessible(page, 'home (authentication error)');

    await page.goto(`${stack.baseUrl}/auth/callback`);
    await page.waitForURL(`${stack.baseUrl}/`);
    await expectOnPage(page.getByText(ERRORS.noAuthorizationCode)).toBeVisible();

    await page.goto(`${stack.baseUrl}/auth/callback?code=not-a-real-code&state=not-a-real-state`);
    await page.waitForURL(`${stack.baseUrl}/`);
    await expectOnPage(page.getByText(ERRORS.invalidAuthorizationCode)).toBeVisible();
    expect(await page.getByRole('button', { name: 'Login with ROBLOX' }).count()).toBe(1);
  });

  it('signing in from a petition comes back to that petition', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petition/${petitionId}`);
    await page.getByRole('button', { name: 'Login to sign this petition' }).click();
    await page.waitForURL((url) => url.href.startsWith(stack.providerUrl));
    await page.getByRole('button', { name: 'Citizen', exact: true }).click();
    await page.waitForURL(`${stack.baseUrl}/petition/${petitionId}`);
    await expectOnPage(page.getByRole('button', { name: 'Sign this petition' })).toBeVisible();
    await expectOnPage(page.locator('header').getByText('Casey Citizen', { exact: true })).toBeVisible();
  });
});
