/**
 * Journey: a citizen who signs in is turned away; the administrator then runs the web app's
 * administrator screens inside the console (terms, assignment, maintenance, bans and ban
 * statistics, status override, audit log), whose writes are queued in the outbox and applied.
 * axe-core checks every screen visited.
 */
import { describe, expect, it } from 'vitest';
import { seedPetition } from '../support/fixtures.ts';
import { signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { expectAccessible, expectOnPage } from '../support/chromium.ts';

let instance: ConsoleInstance;

const journey = consoleJourney(async ({ stack, openConsole }) => {
  await seedPetition(stack.context, { title: 'A petition to assign', signatures: 2, termId: null });
  instance = await openConsole();
});

describe('who may use the console', () => {
  it('turns a citizen away, then lets the administrator run the site from it', async () => {
    const { page, errors } = await journey.signedInPage(instance, 'Citizen');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'This console is for government and administrator accounts' })).toBeVisible();
    expect(await page.getByRole('navigation', { name: 'Console' }).count()).toBe(0);
    await expectAccessible(page, 'citizen turned away');
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signInFromConsole(journey.browser, page, instance, 'System Administrator');
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('button', { name: 'Parliamentary terms' }).click();
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Parliamentary terms' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Term name' }).fill('Console term 2027');
    await page.getByLabel('Start date').fill('2027-01-01');
    await page.getByLabel('End date').fill('2027-12-31');
    await page.getByRole('button', { name: 'Create Term' }).click();
    await expectOnPage(page.getByText('Queued: Create the term "Console term 2027"')).toBeVisible();
    await expectOnPage(page.getByRole('cell', { name: 'Console term 2027' }).or(page.getByText('Console term 2027', { exact: true })).first()).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page, 'terms screen');

    await nav.getByRole('button', { name: 'Bans and ban statistics' }).click();
    await page.getByRole('textbox', { name: 'ROBLOX user id' }).fill('123456789');
    await page.getByRole('textbox', { name: 'Reason for the ban' }).fill('Spamming petitions');
    await page.getByRole('button', { name: 'Ban User' }).click();
    await expectOnPage(page.getByText('Queued: Ban user 123456789')).toBeVisible();
    await expect.poll(async () => (await journey.stack.context.db.selectFrom('bans').select('user_id').execute()).map((b) => b.user_id), { timeout: 15_000 }).toContain('123456789');
    await expectAccessible(page, 'bans screen');

    await nav.getByRole('button', { name: 'Maintenance' }).click();
    await page.getByRole('switch', { name: 'Maintenance mode' }).click();
    await page.getByRole('button', { name: 'Turn On Maintenance' }).click();
    await expectOnPage(page.getByText('Queued: Turn maintenance mode on')).toBeVisible();
    const siteStatus = async () => ((await (await fetch(`${journey.stack.baseUrl}/api/site-status`)).json()) as { maintenance: boolean }).maintenance;
    await expect.poll(siteStatus, { timeout: 15_000 }).toBe(true);
    await expectAccessible(page, 'maintenance screen');
    // Off again through the same queue.
    await nav.getByRole('button', { name: 'Audit log' }).click();
    await nav.getByRole('button', { name: 'Maintenance' }).click();
    await page.getByRole('switch', { name: 'Maintenance mode' }).click();
    await expect.poll(siteStatus, { timeout: 15_000 }).toBe(false);

    for (const [label, heading] of [['Assign petitions', 'Assign Petitions'], ['Status override', 'Petition Status Override'], ['Audit log', 'Audit log']] as const) {
      await nav.getByRole('button', { name: label, exact: true }).click();
      await expectOnPage(page.getByRole('heading', { level: 2, name: heading, exact: true }).or(page.getByRole('heading', { level: 3, name: heading, exact: true }))).toBeVisible();
      await expectAccessible(page, `${label} screen`);
    }
    // The audit log read through the console shows the actions just applied, by whom.
    const entries = page.getByRole('list', { name: 'Audit log entries' });
    await expectOnPage(entries.getByText('Maintenance mode changed').first()).toBeVisible();
    await expectOnPage(entries.getByText('Sam Sysadmin (System Administrator)').first()).toBeVisible();
    expect(errors).toEqual([]);
  }, 150_000);
});
