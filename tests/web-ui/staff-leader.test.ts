/**
 * Leader of the House of Commons (government rank 7) in a real browser against the real server:
 * every debate status with its validation messages, the debate box the page shows afterwards,
 * removing the debate, a stale edit (412) and deleting a petition with the confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { CONFIRMATIONS, ERRORS, SUCCESS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { formatLongDate, londonDay } from '../../src-shared/rules/dates.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import { expectNoHorizontalScroll, focusedName } from './helpers.ts';
import type { Stack } from '../support/stack.ts';
import { DESKTOP, expectAccessible, expectOnPage, launchBrowser, openSharedPage, PHONE } from '../support/chromium.ts';

const DEBATE_DAY = londonDay(new Date(Date.now() + 14 * 24 * 60 * 60 * 1000));
const DEBATE_DATE_TEXT = formatLongDate(DEBATE_DAY);
const HANSARD = 'https://hansard.parliament.uk/commons/debates/libraries';

let stack: Stack;
let browser: Browser;
let page: Page;
let errors: string[];
let debatePetition: number;
let doomedPetition: number;
let vanishingPetition: number;

const panel = () => page.getByRole('region', { name: 'Government Admin Panel' });
const debateSection = () => panel().getByRole('region', { name: 'Manage Debate', exact: true });
const debateForm = () => panel().getByRole('form', { name: /Parliament Debate$/ });
const debateBox = () => page.getByRole('region', { name: 'Parliament debate', exact: true });
const summaryLinks = (scope: Locator) => scope.locator('.error-summary').getByRole('link').allTextContents();

async function openDebateForm(expectedTitle: string): Promise<Locator> {
  await debateSection().getByRole('button', { name: /^(Schedule|Update) Debate$/ }).click();
  const form = debateForm();
  await expectOnPage(form.getByRole('heading', { name: expectedTitle })).toBeVisible();
  // Focus moves into the form, on its first control.
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('debate-status');
  return form;
}

async function storedDebate(id: number): Promise<Record<string, unknown> | null> {
  const row = await stack.context.db.selectFrom('petitions').select('debate_info').where('id', '=', id).executeTakeFirstOrThrow();
  return row.debate_info ? (JSON.parse(row.debate_info) as Record<string, unknown>) : null;
}

beforeAll(async () => {
  stack = await startStack();
  await seedTerm(stack.context);
  ({ id: debatePetition } = await seedPetition(stack.context, { title: 'Debate the library budget', signatures: 24 }));
  ({ id: doomedPetition } = await seedPetition(stack.context, { title: 'A petition that will be deleted', signatures: 2 }));
  ({ id: vanishingPetition } = await seedPetition(stack.context, { title: 'A petition deleted elsewhere' }));
  browser = await launchBrowser();
  ({ page, errors } = await openSharedPage(browser));
  await stack.signIn(page, 'Leader of the House of Commons');
}, 120_000);


afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('Leader of the House: debates', () => {
  it('sees the debate section with a Schedule Debate button', async () => {
    await page.goto(`${stack.baseUrl}/petition/${debatePetition}`);
    await expectOnPage(debateSection().getByText('No debate information has been added yet.')).toBeVisible();
    await expectOnPage(panel().getByRole('heading', { name: 'Add Government Response' })).toBeVisible();
    await expectOnPage(panel().getByRole('button', { name: 'Delete Petition' })).toBeVisible();
    expect(await panel().getByRole('link', { name: 'Manage Parliamentary Terms' }).count()).toBe(0);
    await expectAccessible(page, 'panel for the Leader of the House');
  });

  it('schedules a debate: a date is required, the location defaults to Westminster Hall', async () => {
    const form = await openDebateForm('Add Parliament Debate');
    expect(await form.getByLabel('Debate status').inputValue()).toBe('scheduled');
    expect(await form.getByLabel('Location').inputValue()).toBe('Westminster Hall');
    expect(await form.getByLabel('Hansard link').count()).toBe(0);
    await form.getByRole('button', { name: 'Schedule Debate' }).click();
    await expect.poll(() => summaryLinks(form)).toEqual([VALIDATION.debateDateRequired]);
    await expectAccessible(page, 'scheduled without a date');

    await form.getByLabel('Debate date').fill(DEBATE_DAY);
    await form.getByLabel('Location').fill('');
    await form.getByRole('button', { name: 'Schedule Debate' }).click();
    await expectOnPage(debateSection().getByRole('status').getByText(SUCCESS.debateScheduled)).toBeVisible();
    await expectOnPage(debateBox().getByText(`This petition is scheduled for debate on ${DEBATE_DATE_TEXT}`)).toBeVisible();
    await expectOnPage(debateBox().getByText('Location: Westminster Hall')).toBeVisible();
    expect(await storedDebate(debatePetition)).toMatchObject({ status: 'scheduled', date: DEBATE_DAY, location: 'Westminster Hall' });
  });

  it('records a completed debate: the Hansard link is required and is a url input', async () => {
    const form = await openDebateForm('Update Parliament Debate');
    await form.getByLabel('Debate status').selectOption('debated');
    const hansard = form.getByLabel('Hansard link');
    expect(await hansard.getAttribute('type')).toBe('url');
    await form.getByRole('button', { name: 'Record Completion' }).click();
    await expect.poll(() => summaryLinks(form)).toEqual([VALIDATION.hansardRequired]);
    await expectAccessible(page, 'debated without a Hansard link');

    await hansard.fill(HANSARD);
    await form.getByRole('button', { name: 'Record Completion' }).click();
    await expectOnPage(debateSection().getByRole('status').getByText(SUCCESS.debateCompleted)).toBeVisible();
    await expectOnPage(debateBox().getByText(`This petition was debated on ${DEBATE_DATE_TEXT}`)).toBeVisible();
    expect(await debateBox().getByRole('link', { name: /Hansard/ }).getAttribute('href')).toBe(HANSARD);
  });

  it('records a decision not to debate: a reason is required', async () => {
    const form = await openDebateForm('Update Parliament Debate');
    await form.getByLabel('Debate status').selectOption('not_debated');
    expect(await form.getByLabel('Hansard link').count()).toBe(0);
    await form.getByRole('button', { name: 'Record Decision' }).click();
    await expect.poll(() => summaryLinks(form)).toEqual([VALIDATION.notDebatedReasonRequired]);
    await expectAccessible(page, 'not debated without a reason');

    await form.getByLabel('Reason for not debating this petition').fill('A similar debate took place last month.');
    await form.getByRole('button', { name: 'Record Decision' }).click();
    await expectOnPage(debateSection().getByRole('status').getByText('Decision not to debate submitted successfully!')).toBeVisible();
    await expectOnPage(
      debateBox().getByText('This petition will not be debated in parliament. A similar debate took place last month.'),
    ).toBeVisible();
    // The Hansard link went only with the held debate.
    expect(await storedDebate(debatePetition)).toMatchObject({ status: 'not_debated', hansardLink: null });
  });

  it('cancels a debate: a reason is required and is sent as not_debated_reason', async () => {
    const form = await openDebateForm('Update Parliament Debate');
    await form.getByLabel('Debate status').selectOption('cancelled');
    const reason = form.getByLabel('Reason for cancelling the debate');
    await reason.fill('');
    await form.getByRole('button', { name: 'Cancel Debate' }).click();
    await expect.poll(() => summaryLinks(form)).toEqual([VALIDATION.cancelledReasonRequired]);
    await expectAccessible(page, 'cancelled without a reason');

    await form.getByLabel(/Date the debate was scheduled for/).fill(DEBATE_DAY);
    await reason.fill('Parliament was prorogued.');
    await form.getByRole('button', { name: 'Cancel Debate' }).click();
    await expectOnPage(debateSection().getByRole('status').getByText('Debate cancellation submitted successfully!')).toBeVisible();
    await expectOnPage(debateBox().getByText(`The debate scheduled for ${DEBATE_DATE_TEXT} has been cancelled: Parliament was prorogued.`, { exact: true })).toBeVisible();
    // Recorded under the office the header shows, not 'Government Official'.
    await expectOnPage(debateBox().getByText(/by Leader of the House of Commons on /).first()).toBeVisible();
    expect(await storedDebate(debatePetition)).toMatchObject({
      status: 'cancelled',
      date: DEBATE_DAY,
      notDebatedReason: 'Parliament was prorogued.',
    });
  });

  it('closes the form without saving and returns focus to its button; the form fits 360 px', async () => {
    await openDebateForm('Update Parliament Debate');
    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page, 'debate form at 360 px');
    await expectAccessible(page, 'debate form at 360 px');
    await page.setViewportSize(DESKTOP);
    await debateForm().getByRole('button', { name: 'Close form' }).click();
    expect(await debateForm().count()).toBe(0);
    expect(await focusedName(page)).toBe('Update Debate');
  });

  it('shows a stale edit (412) with the server explanation and a reload', async () => {
    const form = await openDebateForm('Update Parliament Debate');
    await form.getByLabel('Debate status').selectOption('scheduled');
    await form.getByLabel('Debate date').fill(DEBATE_DAY);
    // Someone else changes the petition while the form is open, with no notice to this page: changed just
    // before the click, so no reload of the page from the earlier tests' saves can pick up the new version.
    await stack.context.db
      .updateTable('petitions')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', debatePetition)
      .execute();
    await form.getByRole('button', { name: 'Schedule Debate' }).click();
    const alert = debateSection().getByRole('alert');
    await expectOnPage(alert.getByText(ERRORS.versionMismatch)).toBeVisible();
    const reloaded = page.waitForResponse((r) => r.url().endsWith(`/api/petitions/${debatePetition}`) && r.ok());
    await alert.getByRole('button', { name: 'Reload petition' }).click();
    await reloaded;
    await expect.poll(() => alert.textContent()).toBe('');
    // Nothing was saved; the reloaded version is accepted.
    expect(await storedDebate(debatePetition)).toMatchObject({ status: 'cancelled' });
    await openDebateForm('Update Parliament Debate');
    await debateForm().getByLabel('Debate status').selectOption('scheduled');
    await debateForm().getByLabel('Debate date').fill(DEBATE_DAY);
    await debateForm().getByRole('button', { name: 'Schedule Debate' }).click();
    await expectOnPage(debateSection().getByRole('status').getByText(SUCCESS.debateScheduled)).toBeVisible();
  });

  it('removes the debate after confirming', async () => {
    await debateSection().getByRole('button', { name: 'Remove Debate' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove debate information' });
    await expectOnPage(dialog.getByText('Are you sure you want to remove the debate information? This action cannot be undone.')).toBeVisible();
    await expectAccessible(page, 'remove debate dialog');
    await dialog.getByRole('button', { name: 'Remove Debate' }).click();
    await expectOnPage(debateSection().getByRole('status').getByText(SUCCESS.debateRemoved)).toBeVisible();
    await expectOnPage(debateSection().getByText('No debate information has been added yet.')).toBeVisible();
    expect(await debateBox().count()).toBe(0);
    expect(await storedDebate(debatePetition)).toBeNull();
    // Focus lands on the message, not on the vanished button.
    expect(await page.evaluate(() => document.activeElement?.classList.contains('staff-outcome'))).toBe(true);
  });
});

describe('Leader of the House: deleting a petition', () => {
  it('says "Petition not found" when someone else deleted it first', async () => {
    await page.goto(`${stack.baseUrl}/petition/${vanishingPetition}`);
    await expectOnPage(panel().getByRole('button', { name: 'Delete Petition' })).toBeVisible();
    const gone = await page.request.delete(`${stack.baseUrl}/api/petitions/${vanishingPetition}`, {
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: stack.baseUrl },
    });
    expect(gone.status()).toBe(200);
    await panel().getByRole('button', { name: 'Delete Petition' }).click();
    await page.getByRole('alertdialog', { name: 'Delete petition' }).getByRole('button', { name: 'Delete Petition' }).click();
    await expectOnPage(panel().getByRole('region', { name: 'Delete Petition' }).getByRole('alert').getByText(ERRORS.petitionNotFound)).toBeVisible();
    expect(page.url()).toBe(`${stack.baseUrl}/petition/${vanishingPetition}`);
  });

  it('asks for confirmation; cancelling keeps the petition and returns focus', async () => {
    await page.goto(`${stack.baseUrl}/petition/${doomedPetition}`);
    await panel().getByRole('button', { name: 'Delete Petition' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete petition' });
    await expectOnPage(dialog.getByText(CONFIRMATIONS.deletePetition)).toBeVisible();
    await expectAccessible(page, 'delete petition dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expectOnPage(dialog).toBeHidden();
    expect(await focusedName(page)).toBe('Delete Petition');
    expect(await stack.context.db.selectFrom('petitions').select('id').where('id', '=', doomedPetition).executeTakeFirst()).toBeDefined();
  });

  it('deletes after confirming and says so on the petition list', async () => {
    await panel().getByRole('button', { name: 'Delete Petition' }).click();
    await page.getByRole('alertdialog', { name: 'Delete petition' }).getByRole('button', { name: 'Delete Petition' }).click();
    await page.waitForURL(`${stack.baseUrl}/petitions`);
    await expectOnPage(page.getByText(SUCCESS.petitionDeleted)).toBeVisible();
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'All petitions' })).toBeVisible();
    expect(await stack.context.db.selectFrom('petitions').select('id').where('id', '=', doomedPetition).executeTakeFirst()).toBeUndefined();
    await expectAccessible(page, 'petition list after deletion');
  });

  it('raised no script errors along the way', () => {
    expect(errors).toEqual([]);
  });
});
