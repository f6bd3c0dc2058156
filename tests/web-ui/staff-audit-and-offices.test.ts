/**
 * The web staff screens of issue #22 in a real browser against the real server:
 * - the administrator's audit log on Term Management: names with roles, made-at beside applied-at
 *   for an action from the console's outbox, filters by who, what, petition and date range, paging
 *   through everything, the filtered CSV download; axe-core on each state;
 * - offices tied to a rank in the Government Admin Panel: a Cabinet Minister is not offered them,
 *   the Prime Minister starts with their own, and each member starts from the office they chose last.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { formatDateTime, londonDay } from '../../src-shared/rules/dates.ts';
import { appFetch, signInAs } from '../server-auth/browser.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage, openSharedPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let admin: Page;
let errors: string[];
const BANS = 27;
// Two hours before the response reaches the server, as a console coming back online would send it.
const MADE_AT = new Date(Date.now() - 2 * 3_600_000).toISOString();
let answered: number;
/** The London days the response may have been applied on: a run can cross midnight while it is sent. */
let appliedDays: { from: string; to: string };

beforeAll(async () => {
  stack = await startStack();
  await seedTerm(stack.context);
  answered = (await seedPetition(stack.context, { title: 'Answer me offline', signatures: 12, status: 'awaiting_government_response' })).id;
  // 27 bans by the administrator and, as the console's outbox sends it, one response made earlier.
  const sysadmin = await signInAs(stack, 'System Administrator');
  for (let i = 0; i < BANS; i++) {
    const ban = await appFetch(stack, sysadmin.jar, `/api/bans/${700_000 + i}`, { method: 'PUT', body: { reason: `Spam wave ${i}` } });
    expect(ban.status).toBe(201);
  }
  const minister = await signInAs(stack, 'Cabinet Minister');
  const sentOn = londonDay(new Date());
  const response = await appFetch(stack, minister.jar, `/api/petitions/${answered}/government-response`, {
    method: 'POST',
    body: { response_text: 'Written offline on a train.', added_by_role: 'Home Secretary' },
    headers: { 'x-action-made-at': MADE_AT },
  });
  expect(response.status).toBe(200);
  appliedDays = { from: sentOn, to: londonDay(new Date()) };
  browser = await launchBrowser();
  ({ page: admin, errors } = await openSharedPage(browser, { width: 1100, height: 900 }));
  await stack.signIn(admin, 'System Administrator');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const section = () => admin.getByRole('region', { name: 'Audit log' });
const entries = () => section().getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
const count = () => section().locator('.audit-log__count');

describe('the audit log on Term Management', () => {
  it('shows the newest entries with names and roles, and made-at beside applied-at for an outbox action', async () => {
    await admin.goto(`${stack.baseUrl}/term-management`);
    await expectOnPage(count()).toHaveText('Showing 25 entries, newest first; older entries follow.');
    const newest = entries().first();
    await expectOnPage(newest.getByRole('heading', { level: 3 })).toHaveText(`Government response added · Petition #${answered}`);
    await expectOnPage(newest).toContainText('Morgan Minister (Cabinet Minister)');
    await expectOnPage(newest).toContainText(`made ${formatDateTime(MADE_AT)} (queued offline)`);
    await expectOnPage(entries().nth(1)).toContainText('Sam Sysadmin (System Administrator)');
    await expectOnPage(entries().nth(1).getByRole('heading')).toHaveText('User banned · User 700026');
    await expectAccessible(admin, 'audit log, first page');
  });

  it('pages through everything, moving focus to the first older entry', async () => {
    await section().getByRole('button', { name: 'Show older entries' }).click();
    await expectOnPage(count()).toHaveText(`Showing ${BANS + 1} entries, newest first.`);
    expect(await section().getByRole('button', { name: 'Show older entries' }).count()).toBe(0);
    await expect.poll(() => admin.evaluate(() => document.activeElement?.textContent ?? '')).toContain('User 700002');
    await expectOnPage(entries().last()).toContainText('User 700000');
  });

  it('filters by who, what, petition and date, and says when nothing matches', async () => {
    await section().getByLabel('Who').selectOption({ label: 'Morgan Minister (Cabinet Minister)' });
    await section().getByRole('button', { name: 'Apply filters' }).click();
    await expectOnPage(count()).toHaveText('Showing 1 entry matching the filters, newest first.');
    await expectAccessible(admin, 'audit log filtered by who');

    await section().getByRole('button', { name: 'Clear filters' }).click();
    await section().getByLabel('What').selectOption({ label: 'User banned' });
    await section().getByLabel('Petition number').fill(`#${answered}`);
    await section().getByRole('button', { name: 'Apply filters' }).click();
    await expectOnPage(count()).toHaveText('No entries match these filters.');
    await expectAccessible(admin, 'audit log, nothing matches');

    await section().getByRole('button', { name: 'Clear filters' }).click();
    await section().getByLabel('Petition number').fill(String(answered));
    await section().getByLabel('From (date applied)').fill(appliedDays.from);
    await section().getByLabel('To (date applied)').fill(appliedDays.to);
    await section().getByRole('button', { name: 'Apply filters' }).click();
    await expectOnPage(count()).toHaveText('Showing 1 entry matching the filters, newest first.');
  });

  it('shows a mistake in the filters at its field, without asking the server', async () => {
    await section().getByLabel('Petition number').fill('twelve');
    await section().getByLabel('To (date applied)').fill('2020-01-01');
    await section().getByRole('button', { name: 'Apply filters' }).click();
    await expectOnPage(section().getByText('Enter a petition number, such as 12')).toBeVisible();
    await expectOnPage(section().getByText('The end date must not be before the start date')).toBeVisible();
    expect(await section().getByLabel('Petition number').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(admin, 'audit log filter errors');
    // The list still shows the last filters' answer.
    await expectOnPage(count()).toHaveText('Showing 1 entry matching the filters, newest first.');
  });

  it('downloads the filtered log as CSV', async () => {
    await section().getByRole('button', { name: 'Clear filters' }).click();
    await section().getByLabel('What').selectOption({ label: 'User banned' });
    await section().getByRole('button', { name: 'Apply filters' }).click();
    await expectOnPage(count()).toHaveText('Showing 25 entries matching the filters, newest first; older entries follow.');
    const [download] = await Promise.all([admin.waitForEvent('download'), section().getByRole('link', { name: /Download CSV/ }).click()]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const lines = fs.readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,applied_at,made_at,actor_id,actor_name,actor_role,action,action_label,target_type,target_id,before,after');
    // Every ban, not only the page on screen.
    expect(lines).toHaveLength(1 + BANS);
    expect(lines.every((line, i) => i === 0 || line.includes(',ban.create,User banned,ban,'))).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('offices tied to a rank in the Government Admin Panel', () => {
  it('offers a Cabinet Minister neither tied office and starts from the office they chose last', async () => {
    const other = (await seedPetition(stack.context, { title: 'Another one to answer', signatures: 11, status: 'awaiting_government_response' })).id;
    const { page } = await openPage(browser);
    await stack.signIn(page, 'Cabinet Minister');
    await page.goto(`${stack.baseUrl}/petition/${other}`);
    const role = page.getByRole('region', { name: 'Government Admin Panel' }).getByLabel('Your government role');
    // Their last response was signed "Home Secretary" (the server remembers it).
    await expectOnPage(role).toHaveValue('Home Secretary');
    const offered = await role.locator('option').allTextContents();
    expect(offered).not.toContain('Prime Minister');
    expect(offered).not.toContain('Leader of the House of Commons');
    await expectAccessible(page, 'response form with the remembered office');
  });

  it('starts the Prime Minister with their own office', async () => {
    const third = (await seedPetition(stack.context, { title: 'For the Prime Minister', signatures: 13, status: 'awaiting_government_response' })).id;
    const { page } = await openPage(browser);
    await stack.signIn(page, 'Prime Minister');
    await page.goto(`${stack.baseUrl}/petition/${third}`);
    const role = page.getByRole('region', { name: 'Government Admin Panel' }).getByLabel('Your government role');
    await expectOnPage(role).toHaveValue('Prime Minister');
    expect(await role.locator('option').allTextContents()).not.toContain('Leader of the House of Commons');
  });
});
