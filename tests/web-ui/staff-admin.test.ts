/**
 * System Administrator in a real browser against the real server: term management (create, edit,
 * delete), assigning petitions, maintenance mode seen from a citizen's browser, the status
 * override, bans, Delete All Petitions behind the typed confirmation, and the layout at 360 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { formatLongDate, londonDay } from '../../src-shared/rules/dates.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import { expectNoHorizontalScroll } from './helpers.ts';
import type { Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openSharedPage, PHONE } from '../support/chromium.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => londonDay(new Date(Date.now() + offsetDays * DAY_MS));
const LONG_DESCRIPTION = `${'Libraries are the heart of every town in Bloxburg and need support. '.repeat(3)}END`;

let stack: Stack;
let browser: Browser;
let page: Page;
let errors: string[];
let citizenPage: Page;
let libraryA: number;
let libraryB: number;
let roads: number;
let nextTerm: { id: number; name: string };

const card = (name: string) => page.getByRole('region', { name, exact: true });
const summaryLinks = (scope: Locator) => scope.locator('.error-summary').getByRole('link').allTextContents();

async function serverMaintenance(): Promise<boolean> {
  const response = await fetch(`${stack.baseUrl}/api/site-status`);
  return ((await response.json()) as { maintenance: boolean }).maintenance;
}

async function termRow(name: string): Promise<Locator> {
  const row = card('Parliamentary Terms').getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await expectOnPage(row).toBeVisible();
  return row;
}

beforeAll(async () => {
  stack = await startStack();
  await seedTerm(stack.context, { name: 'Term 88' });
  nextTerm = await seedTerm(stack.context, { name: 'Term 90', startDate: day(400), endDate: day(700) });
  ({ id: libraryA } = await seedPetition(stack.context, { title: 'Open a library in Westbrook', description: LONG_DESCRIPTION, termId: null }));
  ({ id: libraryB } = await seedPetition(stack.context, { title: 'Extend library opening hours', termId: null }));
  ({ id: roads } = await seedPetition(stack.context, { title: 'Repair the roads of Bloxburg', signatures: 3 }));
  browser = await launchBrowser();
  ({ page, errors } = await openSharedPage(browser));
  ({ page: citizenPage } = await openSharedPage(browser));
  await Promise.all([stack.signIn(page, 'System Administrator'), stack.signIn(citizenPage, 'Citizen')]);
}, 120_000);



afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('System Administrator: terms', () => {
  it('opens Term Management from the header and lists the terms with dates and status', async () => {
    await page.getByRole('link', { name: 'Manage Terms' }).click();
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Term Management' })).toBeVisible();
    const row = await termRow('Term 88');
    await expectOnPage(row.getByText('Current (automatic)')).toBeVisible();
    const seeded = await stack.context.db.selectFrom('terms').selectAll().where('name', '=', 'Term 88').executeTakeFirstOrThrow();
    await expectOnPage(row.getByText(`${formatLongDate(seeded.start_date)} to ${formatLongDate(seeded.end_date)}`)).toBeVisible();
    await expectOnPage((await termRow('Term 90')).getByText('Upcoming (automatic)')).toBeVisible();
    await expectOnPage(card('Dangerous Actions').getByText('Maintenance mode is OFF. The site is open to everyone.')).toBeVisible();
    await expectOnPage(card('Dangerous Actions').getByText('Total banned users')).toBeVisible();
    await expectAccessible(page, 'term management');
  });

  it('creates a term: all fields are required and new terms default to upcoming', async () => {
    const form = card('Create New Term');
    expect(await form.getByLabel('Status').inputValue()).toBe('upcoming');
    expect(await form.getByLabel('Status').locator('option').allTextContents()).toEqual([
      'Upcoming',
      'Current',
      'Completed',
      'Automatic (from dates)',
    ]);
    await form.getByLabel('Term name').fill('Term 89');
    await form.getByRole('button', { name: 'Create Term' }).click();
    await expect.poll(() => summaryLinks(form)).toEqual([VALIDATION.termFieldsRequired]);
    await expectAccessible(page, 'create term validation');

    await form.getByLabel('Start date').fill(day(200));
    await form.getByLabel('End date').fill(day(300));
    await form.getByRole('button', { name: 'Create Term' }).click();
    await expectOnPage(form.getByRole('status').getByText('Parliamentary term created successfully.')).toBeVisible();
    expect(await form.getByLabel('Term name').inputValue()).toBe('');
    const row = await termRow('Term 89');
    await expectOnPage(row.getByText('Upcoming', { exact: true })).toBeVisible();
    await expectOnPage(row.getByText(`${formatLongDate(day(200))} to ${formatLongDate(day(300))}`)).toBeVisible();
    expect(
      await stack.context.db.selectFrom('terms').select(['status', 'start_date']).where('name', '=', 'Term 89').executeTakeFirstOrThrow(),
    ).toEqual({ status: 'upcoming', start_date: day(200) });
  });

  it('edits a term inline, then focus returns to its Edit button', async () => {
    const row = await termRow('Term 89');
    await row.getByRole('button', { name: 'Edit Term 89' }).click();
    const name = card('Parliamentary Terms').getByLabel('Term name');
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAccessible(page, 'editing a term');
    await name.fill('');
    await card('Parliamentary Terms').getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => summaryLinks(card('Parliamentary Terms'))).toEqual([VALIDATION.termFieldsRequired]);

    await name.fill('Term 89 (renamed)');
    await card('Parliamentary Terms').getByLabel('Status').selectOption('Automatic (from dates)');
    await card('Parliamentary Terms').getByRole('button', { name: 'Save Changes' }).click();
    await expectOnPage(card('Parliamentary Terms').getByRole('status').getByText('Parliamentary term updated successfully.')).toBeVisible();
    const renamed = await termRow('Term 89 (renamed)');
    await expectOnPage(renamed.getByText('Upcoming (automatic)')).toBeVisible();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit Term 89 (renamed)');
    expect(
      await stack.context.db.selectFrom('terms').select('status').where('name', '=', 'Term 89 (renamed)').executeTakeFirstOrThrow(),
    ).toEqual({ status: null });
  });

  it('deletes a term after confirming', async () => {
    const row = await termRow('Term 89 (renamed)');
    await row.getByRole('button', { name: 'Delete Term 89 (renamed)' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete parliamentary term' });
    await expectOnPage(dialog.getByText('Are you sure you want to delete Term 89 (renamed)? It has no petitions. This action cannot be undone.')).toBeVisible();
    await expectAccessible(page, 'delete term dialog');
    await dialog.getByRole('button', { name: 'Delete Term' }).click();
    await expectOnPage(card('Parliamentary Terms').getByRole('status').getByText('Parliamentary term deleted successfully.')).toBeVisible();
    await expectOnPage(row).toHaveCount(0);
    expect(await stack.context.db.selectFrom('terms').select('id').where('name', 'like', 'Term 89%').execute()).toEqual([]);
  });
});

describe('System Administrator: assigning petitions', () => {
  it('needs a term and at least one petition', async () => {
    const assign = card('Assign Petitions');
    await assign.getByRole('button', { name: 'Assign Petitions' }).click();
    await expect.poll(() => summaryLinks(assign)).toEqual([VALIDATION.assignNeedsTermAndPetition]);
    await assign.getByLabel('Parliamentary term').selectOption({ label: 'Term 90' });
    await assign.getByRole('button', { name: 'Assign Petitions' }).click();
    await expect.poll(() => summaryLinks(assign)).toEqual([VALIDATION.assignNeedsTermAndPetition]);
    await expectAccessible(page, 'assign validation');
  });

  it('searches, shows descriptions cut at 150 characters, and assigns the chosen petitions', async () => {
    const assign = card('Assign Petitions');
    await assign.getByLabel('Search petitions').fill('library');
    await expect.poll(() => assign.getByRole('checkbox').count()).toBe(2);
    const description = await assign.locator(`#assign-petition-${libraryA}-desc`).innerText();
    expect(description.startsWith(`${LONG_DESCRIPTION.slice(0, 150).trimEnd()}...`)).toBe(true);
    expect(description).not.toContain('END');

    await assign.getByLabel('Open a library in Westbrook').check();
    await assign.getByLabel('Extend library opening hours').check();
    await expectOnPage(assign.getByText('2 petitions selected')).toBeVisible();
    await assign.getByRole('button', { name: 'Assign Petitions' }).click();
    await expectOnPage(assign.getByRole('status').getByText('2 petitions assigned to Term 90.')).toBeVisible();
    const rows = await stack.context.db.selectFrom('petitions').select(['id', 'term_id']).where('id', 'in', [libraryA, libraryB]).execute();
    expect(rows.map((r) => r.term_id)).toEqual([nextTerm.id, nextTerm.id]);
    await expectOnPage(assign.getByText('0 petitions selected')).toBeVisible();
  });
});

describe('System Administrator: dangerous actions', () => {
  it('turns maintenance on: a citizen sees the maintenance page, the administrator does not', async () => {
    const danger = card('Dangerous Actions');
    const toggle = danger.getByRole('switch', { name: 'Maintenance mode' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    const dialog = page.getByRole('alertdialog', { name: 'Turn on maintenance mode' });
    await expectAccessible(page, 'maintenance confirmation');
    await dialog.getByRole('button', { name: 'Turn On Maintenance' }).click();
    await expectOnPage(danger.getByText(`Maintenance mode is ON. Everyone except the System Administrator sees "${ERRORS.maintenance}".`)).toBeVisible();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');

    // The server caches the switch for up to a second (see the report): wait until it says so.
    await expect.poll(() => serverMaintenance(), { timeout: 5_000 }).toBe(true);
    await citizenPage.goto(`${stack.baseUrl}/petitions`);
    await expectOnPage(citizenPage.getByRole('heading', { name: ERRORS.maintenance })).toBeVisible();

    await page.reload();
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Term Management' })).toBeVisible();
    await expectOnPage(card('Dangerous Actions').getByText(/Maintenance mode is ON/)).toBeVisible();
    expect(await page.getByRole('heading', { name: ERRORS.maintenance }).count()).toBe(0);
    await page.goto(`${stack.baseUrl}/petitions`);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'All petitions' })).toBeVisible();
    expect(await page.getByRole('heading', { name: ERRORS.maintenance }).count()).toBe(0);
  });

  it('turns maintenance off again for everyone', async () => {
    await page.goto(`${stack.baseUrl}/term-management`);
    const toggle = card('Dangerous Actions').getByRole('switch', { name: 'Maintenance mode' });
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await expectOnPage(card('Dangerous Actions').getByText('Maintenance mode is OFF. The site is open to everyone.')).toBeVisible();
    await expect.poll(() => serverMaintenance(), { timeout: 5_000 }).toBe(false);
    await citizenPage.reload();
    await expectOnPage(citizenPage.getByRole('heading', { level: 1, name: 'All petitions' })).toBeVisible();
    expect(await citizenPage.getByRole('heading', { name: ERRORS.maintenance }).count()).toBe(0);
    expect(await stack.context.siteSettings.isMaintenanceOn()).toBe(false);
  });

  it('overrides a petition status', async () => {
    const override = card('Petition Status Override');
    await override.getByRole('button', { name: 'Update Status' }).click();
    await expect.poll(() => summaryLinks(override)).toEqual([VALIDATION.statusNeedsPetitionAndStatus]);
    await expectAccessible(page, 'status override validation');
    await override.getByRole('combobox', { name: 'Petition' }).fill('roads');
    await expect.poll(() => override.getByRole('listbox').getByRole('option').count()).toBe(1);
    await override.getByRole('option', { name: new RegExp(`^#${roads} Repair the roads of Bloxburg`) }).click();
    await override.getByLabel('New status').selectOption('debated_in_parliament');
    await override.getByRole('button', { name: `Update status of #${roads} Repair the roads of Bloxburg` }).click();
    await expectOnPage(
      override.getByRole('status').getByText(`Status of #${roads} "Repair the roads of Bloxburg" set to Debated in Parliament.`),
    ).toBeVisible();
    expect(await stack.context.db.selectFrom('petitions').select('status').where('id', '=', roads).executeTakeFirstOrThrow()).toEqual({
      status: 'debated_in_parliament',
    });
  });

  it('bans and unbans a user id, with the statistics following', async () => {
    const bans = card('Ban Management');
    const stats = card('Ban Statistics');
    await expectOnPage(stats.getByText('Available')).toBeVisible();
    await bans.getByRole('button', { name: 'Ban User' }).click();
    await expect.poll(() => summaryLinks(bans)).toEqual([
      'Please enter a ROBLOX user id (digits only)',
      VALIDATION.banReasonRequired,
    ]);
    await expectAccessible(page, 'ban validation');
    await bans.getByLabel('ROBLOX user id').fill('123456789');
    await bans.getByLabel('Reason for the ban').fill('Spam petitions');
    await bans.getByRole('button', { name: 'Ban User' }).click();
    await expectOnPage(bans.getByRole('status').getByText('User 123456789 banned.')).toBeVisible();
    const item = card('Banned Users').getByRole('listitem').filter({ hasText: 'User 123456789' });
    await expectOnPage(item.getByText('Reason: Spam petitions')).toBeVisible();
    await expect.poll(() => stats.locator('dd').first().textContent()).toBe('1');

    await item.getByRole('button', { name: 'Unban user 123456789' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Unban user' });
    await expectAccessible(page, 'unban dialog');
    await dialog.getByRole('button', { name: 'Unban User' }).click();
    await expectOnPage(bans.getByRole('status').getByText('User 123456789 unbanned.')).toBeVisible();
    await expectOnPage(card('Banned Users').getByText('No users are banned.')).toBeVisible();
    await expect.poll(() => stats.locator('dd').first().textContent()).toBe('0');
  });

  it('shows recent staff activity in the audit log', async () => {
    await card('Audit log').getByRole('button', { name: 'Refresh' }).click();
    const activity = card('Audit log').getByRole('list', { name: 'Audit log entries' });
    await expectOnPage(activity.getByText('User unbanned')).toBeVisible();
    await expectOnPage(activity.getByText('Term created')).toBeVisible();
    await expectOnPage(activity.getByText('Maintenance mode changed').first()).toBeVisible();
  });

  it('deletes all petitions only after the exact phrase is typed', async () => {
    const zone = card('Delete All Petitions');
    const button = zone.getByRole('button', { name: 'Delete All Petitions' });
    const phrase = zone.getByLabel(ERRORS.deleteAllConfirmation);
    expect(await button.isDisabled()).toBe(true);
    // The disabled button says why: what to type, and that it is case-sensitive.
    const why = `The button stays disabled until you type ${DELETE_ALL_CONFIRMATION} exactly. It is case-sensitive.`;
    await expectOnPage(zone.getByText(why)).toBeVisible();
    expect(await button.getAttribute('aria-describedby')).toBe('delete-all-guidance');
    expect(await zone.locator('#delete-all-guidance').textContent()).toBe(why);
    await phrase.fill(DELETE_ALL_CONFIRMATION.toLowerCase());
    expect(await button.isDisabled()).toBe(true);
    await expectOnPage(zone.getByText(`Use capital letters: the phrase is case-sensitive (${DELETE_ALL_CONFIRMATION}).`)).toBeVisible();
    await phrase.fill(`${DELETE_ALL_CONFIRMATION} `);
    expect(await button.isDisabled()).toBe(true);
    await expectOnPage(zone.getByText('Remove the spaces before or after the phrase: it must match exactly.')).toBeVisible();
    await phrase.fill(DELETE_ALL_CONFIRMATION);
    expect(await button.isDisabled()).toBe(false);
    await expectAccessible(page, 'delete all armed');
    await button.click();
    await expectOnPage(zone.getByRole('status').getByText('All petitions deleted (3 petitions removed).')).toBeVisible();
    expect(await phrase.inputValue()).toBe('');
    expect(await button.isDisabled()).toBe(true);
    expect(await stack.context.db.selectFrom('petitions').select('id').execute()).toEqual([]);
  });
});

describe('Term Management for others and on small screens', () => {
  it('is refused to a citizen', async () => {
    await citizenPage.goto(`${stack.baseUrl}/term-management`);
    await expectOnPage(citizenPage.getByText(ERRORS.adminOnly)).toBeVisible();
    expect(await citizenPage.getByRole('heading', { name: 'Parliamentary Terms' }).count()).toBe(0);
  });

  it('fits a 360 px wide screen without sideways scrolling', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${stack.baseUrl}/term-management`);
    await expectOnPage((await termRow('Term 88'))).toBeVisible();
    await expectOnPage(card('Audit log').getByRole('listitem').first()).toBeVisible();
    await expectNoHorizontalScroll(page, 'term management at 360 px');
    await expectAccessible(page, 'term management at 360 px');
    expect(errors).toEqual([]);
  });
});
