/**
 * The web's staff side of working as a team (docs/console-team.md): on a petition's page, a minister
 * sees a colleague who is writing a response and is warned above the form (a claim never blocks);
 * the administrator reads a term's statistics at /statistics with the known seeded figures; others
 * are refused. axe-core checks each state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { KNOWN_STATISTICS, seedKnownStatistics } from '../support/statistics-seed.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let petitionId: number;
let days: { tenDaysAgo: string; today: string };

/** Waits until `done` holds (a test-side flag set by a route handler). */
async function waitUntil(done: () => boolean): Promise<void> {
  await expect.poll(done, { timeout: 20_000, interval: 50 }).toBe(true);
}

beforeAll(async () => {
  stack = await startStack();
  await seedTerm(stack.context);
  days = await seedKnownStatistics(stack.context);
  ({ id: petitionId } = await seedPetition(stack.context, { title: 'Light the park paths at night', signatures: 12, status: 'awaiting_government_response' }));
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('the staff panel shows colleagues on the petition', () => {
  it('warns a minister that the Prime Minister is writing a response, without blocking the form', async () => {
    const minister = await openPage(browser);
    const premier = await openPage(browser);
    await stack.signIn(minister.page, 'Cabinet Minister');
    await stack.signIn(premier.page, 'Prime Minister');
    await minister.page.goto(`${stack.baseUrl}/petition/${petitionId}`);
    await premier.page.goto(`${stack.baseUrl}/petition/${petitionId}`);

    const ministerPanel = minister.page.getByRole('region', { name: 'Government Admin Panel' });
    await expectOnPage(ministerPanel.getByRole('list', { name: 'Also on this petition' })).toContainText('Pat Premier is viewing this petition');
    // The Prime Minister starts typing a response: a claim.
    await premier.page.getByRole('region', { name: 'Government Admin Panel' }).getByLabel('Government response', { exact: true }).fill('Lights will be installed.');
    const warning = ministerPanel.getByRole('status').filter({ hasText: 'Pat Premier (Prime Minister) is writing a response to this petition' });
    await expectOnPage(warning).toBeVisible();
    await expectAccessible(minister.page, 'staff panel with a colleague writing');
    // Not blocked: the minister's form is still there to use.
    await expect(ministerPanel.getByLabel('Government response', { exact: true }).isEditable()).resolves.toBe(true);
    // The Prime Minister leaves: the warning goes.
    await premier.page.goto(`${stack.baseUrl}/`);
    await expectOnPage(warning).toBeHidden();
    expect(minister.errors).toEqual([]);
    expect(premier.errors).toEqual([]);
  }, 90_000);

  it("keeps a colleague the stream reported while the tab's own presence call was answering", async () => {
    const minister = await openPage(browser);
    const premier = await openPage(browser);
    await stack.signIn(minister.page, 'Cabinet Minister');
    await stack.signIn(premier.page, 'Prime Minister');
    // The minister's first presence call is written at once, but its reply (a list without the Prime
    // Minister) is held until the stream has reported the Prime Minister: an older list arriving last.
    let releaseReply = () => {};
    const replyHeld = new Promise<void>((resolve) => (releaseReply = resolve));
    let replied = false;
    let held = 0;
    await minister.page.route('**/api/staff/presence/*', async (route) => {
      if (route.request().method() !== 'PUT' || held++ > 0) return route.continue();
      const response = await route.fetch();
      await replyHeld;
      await route.fulfill({ response });
      replied = true;
    });
    await minister.page.goto(`${stack.baseUrl}/petition/${petitionId}`);
    await waitUntil(() => held > 0);
    await premier.page.goto(`${stack.baseUrl}/petition/${petitionId}`);
    const others = minister.page.getByRole('region', { name: 'Government Admin Panel' }).getByRole('list', { name: 'Also on this petition' });
    await expectOnPage(others).toContainText('Pat Premier is viewing this petition');
    releaseReply();
    await waitUntil(() => replied);
    // A heartbeat (every 20 s) would bring the Prime Minister back; within 2 s only the fix keeps them.
    await minister.page.waitForTimeout(1_000);
    await expectOnPage(others).toContainText('Pat Premier is viewing this petition', { timeout: 1_000 });
    expect(minister.errors).toEqual([]);
  }, 90_000);
});

describe('/statistics', () => {
  it('shows the administrator the known figures, with each chart as a table', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, 'System Administrator');
    await page.goto(`${stack.baseUrl}/statistics`);
    await expectOnPage(page.getByRole('heading', { level: 2, name: 'Statistics: Test Term' })).toBeVisible();
    const figures = page.locator('.statistics__figures');
    await expectOnPage(figures).toContainText(`Signatures${KNOWN_STATISTICS.signatures + 12}`);
    await expectOnPage(figures).toContainText(KNOWN_STATISTICS.responseFigures);
    await expectAccessible(page, 'statistics page');
    const signatures = page.getByRole('region', { name: 'Signatures per day', exact: true });
    await signatures.getByText('Show the numbers as a table').click();
    await expectOnPage(signatures.getByRole('row', { name: `${days.tenDaysAgo} ${KNOWN_STATISTICS.signaturesTenDaysAgo}` })).toBeVisible();
    await expectAccessible(page, 'statistics page with a table open');
    expect(errors).toEqual([]);
  }, 90_000);

  it('is refused to a minister', async () => {
    const { page } = await openPage(browser);
    await stack.signIn(page, 'Prime Minister');
    await page.goto(`${stack.baseUrl}/statistics`);
    await expectOnPage(page.getByRole('heading', { name: /Access Denied/i })).toBeVisible();
    const api = await page.evaluate(async () => (await fetch('/api/statistics')).status);
    expect(api).toBe(403);
  }, 60_000);
});
