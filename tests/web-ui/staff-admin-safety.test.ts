/**
 * The administrator's actions that change many petitions or the wrong one, in a real browser against
 * the real server: completing a term says how many petitions it closes and asks first, and setting it
 * back reopens them; deleting a term says how many petitions lose their term; duplicate term names
 * are refused with the server's reason; the status override changes only the petition shown and
 * chosen, even when the choice is made before the search has narrowed the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { londonDay } from '../../src-shared/rules/dates.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openSharedPage } from '../support/chromium.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => londonDay(new Date(Date.now() + offsetDays * DAY_MS));

let stack: Stack;
let browser: Browser;
let page: Page;
let errors: string[];
let termPetitions: number[];
let closedBefore: number;
let alpha: number;
let beta: number;

const card = (name: string) => page.getByRole('region', { name, exact: true });

async function termRow(name: string): Promise<Locator> {
  const row = card('Parliamentary Terms').getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await expectOnPage(row).toBeVisible();
  return row;
}

async function statuses(ids: number[]): Promise<string[]> {
  const rows = await stack.context.db.selectFrom('petitions').select(['id', 'status']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((row) => row.status);
}

beforeAll(async () => {
  stack = await startStack();
  const term = await seedTerm(stack.context, { name: 'Term 87' });
  await seedTerm(stack.context, { name: 'Term 86', startDate: day(-400), endDate: day(-40), status: 'completed' });
  termPetitions = [];
  for (const signatures of [0, 3, 12]) {
    const status = signatures >= 10 ? 'awaiting_government_response' : 'open';
    termPetitions.push((await seedPetition(stack.context, { title: `Term petition with ${signatures} signatures`, signatures, status, termId: term.id })).id);
  }
  // Closed before the term ends: completing and reopening the term must leave it closed.
  closedBefore = (await seedPetition(stack.context, { title: 'Closed long ago', termId: term.id, status: 'closed' })).id;
  ({ id: alpha } = await seedPetition(stack.context, { title: 'Alpha harbour works', termId: null }));
  ({ id: beta } = await seedPetition(stack.context, { title: 'Beta bridge repair', termId: null }));
  browser = await launchBrowser();
  ({ page, errors } = await openSharedPage(browser));
  await stack.signIn(page, 'System Administrator');
  await page.getByRole('link', { name: 'Manage Terms' }).click();
  await expectOnPage(page.getByRole('heading', { level: 1, name: 'Term Management' })).toBeVisible();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('completing a term', () => {
  it('says how many open petitions it will close, asks, and closes nothing when cancelled', async () => {
    const row = await termRow('Term 87');
    await row.getByRole('button', { name: 'Edit Term 87' }).click();
    await card('Parliamentary Terms').getByLabel('Status').selectOption('Completed');
    await card('Parliamentary Terms').getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('alertdialog', { name: "Change the term's petitions?" });
    await expectOnPage(dialog.getByText('Completing this term will close 3 open petitions.')).toBeVisible();
    await expectAccessible(page, 'term completion confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expectOnPage(dialog).toBeHidden();
    expect(await statuses(termPetitions)).toEqual(['open', 'open', 'awaiting_government_response']);
    expect((await stack.context.db.selectFrom('terms').select('status').where('name', '=', 'Term 87').executeTakeFirstOrThrow()).status).toBeNull();
  });

  it('closes them once confirmed, as one audited action', async () => {
    await card('Parliamentary Terms').getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('alertdialog', { name: "Change the term's petitions?" });
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectOnPage(card('Parliamentary Terms').getByRole('status').getByText('Parliamentary term updated successfully.')).toBeVisible();
    await expectOnPage((await termRow('Term 87')).getByText('Completed', { exact: true })).toBeVisible();
    expect(await statuses(termPetitions)).toEqual(['closed', 'closed', 'closed']);
    const audits = await stack.context.db.selectFrom('audit_log').select(['action', 'after']).where('action', '=', 'term.close_petitions').execute();
    expect(audits.map((row) => JSON.parse(row.after ?? 'null'))).toEqual([{ closureReason: 'term_ended', petitionIds: termPetitions }]);
  });

  it('setting it back to automatic says how many it will reopen, and reopens exactly those', async () => {
    await (await termRow('Term 87')).getByRole('button', { name: 'Edit Term 87' }).click();
    await card('Parliamentary Terms').getByLabel('Status').selectOption('Automatic (from dates)');
    await card('Parliamentary Terms').getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('alertdialog', { name: "Change the term's petitions?" });
    await expectOnPage(dialog.getByText('Making this term current again will reopen 3 petitions that closed when it was completed.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectOnPage((await termRow('Term 87')).getByText('Current (automatic)')).toBeVisible();
    expect(await statuses(termPetitions)).toEqual(['open', 'open', 'awaiting_government_response']);
    expect(await statuses([closedBefore])).toEqual(['closed']);
  });
});

describe('deleting a term', () => {
  it('says how many petitions will be left without a term', async () => {
    await (await termRow('Term 87')).getByRole('button', { name: 'Delete Term 87' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete parliamentary term' });
    await expectOnPage(dialog.getByText('Are you sure you want to delete Term 87? 4 petitions will be left without a term. This action cannot be undone.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await (await termRow('Term 86')).getByRole('button', { name: 'Delete Term 86' }).click();
    await expectOnPage(dialog.getByText('Are you sure you want to delete Term 86? It has no petitions. This action cannot be undone.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('term names', () => {
  it('refuses a second term of the same name with the reason', async () => {
    const form = card('Create New Term');
    await form.getByLabel('Term name').fill('term 87');
    await form.getByLabel('Start date').fill(day(500));
    await form.getByLabel('End date').fill(day(600));
    await form.getByRole('button', { name: 'Create Term' }).click();
    await expectOnPage(form.getByText(VALIDATION.termNameTaken)).toBeVisible();
    expect(await stack.context.db.selectFrom('terms').select('id').execute()).toHaveLength(2);
    expect(errors).toEqual([]);
  });
});

describe('status override', () => {
  const override = () => card('Petition Status Override');
  const combobox = () => override().getByRole('combobox', { name: 'Petition' });

  it('keeps the petition chosen from the list as shown, even when the search narrows it a moment later', async () => {
    await combobox().click();
    const alphaOption = override().getByRole('option', { name: new RegExp(`^#${alpha} Alpha harbour works`) });
    await expectOnPage(alphaOption).toBeVisible();
    await expectAccessible(page, 'status override combobox open');
    // Typing starts a search after a 0.3 s debounce. On a slow machine the click may come later than
    // that, so the narrowed answer is held here until Alpha is picked: the list shown is still the
    // unfiltered one, the administrator picks Alpha from it, and then any narrowed answer arrives.
    const narrowedSearch = /\/api\/petitions\?.*search=Beta/;
    let answerSearch!: () => void;
    const searchHeld = new Promise<void>((resolve) => (answerSearch = resolve));
    await page.route(narrowedSearch, async (route) => {
      await searchHeld;
      await route.continue();
    });
    try {
      await combobox().fill('Beta');
      await alphaOption.click();
    } finally {
      answerSearch();
    }
    await page.waitForTimeout(800);
    await page.unroute(narrowedSearch);
    expect(await combobox().inputValue()).toBe(`#${alpha} Alpha harbour works`);
    expect(await override().locator('input[name="petitionId"]').inputValue()).toBe(String(alpha));
    await override().getByLabel('New status').selectOption('closed');
    await override().getByRole('button', { name: `Update status of #${alpha} Alpha harbour works` }).click();
    await expectOnPage(override().getByRole('status').getByText(`Status of #${alpha} "Alpha harbour works" set to Closed.`)).toBeVisible();
    expect(await statuses([alpha, beta])).toEqual(['closed', 'open']);
  });

  it('chooses by keyboard from the narrowed list; typing again drops the choice', async () => {
    await combobox().fill('Beta');
    await expect.poll(() => override().getByRole('listbox').getByRole('option').allTextContents()).toEqual([`#${beta} Beta bridge repair (Open)`]);
    await combobox().press('ArrowDown');
    await combobox().press('Enter');
    expect(await combobox().inputValue()).toBe(`#${beta} Beta bridge repair`);
    await expectOnPage(override().getByRole('button', { name: `Update status of #${beta} Beta bridge repair` })).toBeVisible();
    await combobox().press('Backspace');
    await expectOnPage(override().getByRole('button', { name: 'Update Status', exact: true })).toBeVisible();
    expect(await override().locator('input[name="petitionId"]').inputValue()).toBe('');
    expect(await statuses([alpha, beta])).toEqual(['closed', 'open']);
    expect(errors).toEqual([]);
  });
});
