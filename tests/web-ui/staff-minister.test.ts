/**
 * Cabinet Minister (government rank 6) in a real browser against the real server: adds and edits a
 * government response through the Government Admin Panel, and sees no debate or delete controls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { MINISTERIAL_OFFICES } from '../../src-shared/domain/constants.ts';
import { SUCCESS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import { expectNoHorizontalScroll, focusedName } from './helpers.ts';
import type { Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openSharedPage, PHONE } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let page: Page;
let errors: string[];
let petitionId: number;

beforeAll(async () => {
  stack = await startStack();
  await seedTerm(stack.context);
  ({ id: petitionId } = await seedPetition(stack.context, {
    title: 'Fund more libraries in Bloxburg',
    signatures: 12,
  }));
  browser = await launchBrowser();
  ({ page, errors } = await openSharedPage(browser));
  await stack.signIn(page, 'Cabinet Minister');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('Cabinet Minister on a petition', () => {
  it('sees the Government Admin Panel with the response form but no debate or delete controls', async () => {
    await page.goto(`${stack.baseUrl}/petition/${petitionId}`);
    const panel = page.getByRole('region', { name: 'Government Admin Panel' });
    await expectOnPage(panel.getByRole('heading', { name: 'Add Government Response' })).toBeVisible();

    const textarea = panel.getByLabel('Government response', { exact: true });
    expect(await textarea.getAttribute('rows')).toBe('4');
    const role = panel.getByLabel('Your government role');
    expect(await role.getAttribute('required')).not.toBeNull();
    // Every office but the two ranks 7 and 8 define (docs/roles.md#offices-tied-to-a-rank).
    const offices = await role.locator('option').allTextContents();
    expect(offices.slice(1)).toEqual(MINISTERIAL_OFFICES.filter((office) => office !== 'Prime Minister' && office !== 'Leader of the House of Commons'));
    expect(offices).toHaveLength(17);

    expect(await panel.getByRole('button', { name: 'Schedule Debate' }).count()).toBe(0);
    expect(await panel.getByRole('heading', { name: 'Manage Debate' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete Petition' }).count()).toBe(0);
    expect(await panel.getByRole('link', { name: 'Manage Parliamentary Terms' }).count()).toBe(0);
    await expectAccessible(page, 'panel, no response yet');
  });

  it('validates the text and the role in an error summary', async () => {
    const panel = page.getByRole('region', { name: 'Government Admin Panel' });
    await panel.getByRole('button', { name: 'Submit Response' }).click();
    const summary = panel.locator('.error-summary');
    await expectOnPage(summary).toBeVisible();
    expect(await summary.getByRole('link').allTextContents()).toEqual([
      VALIDATION.responseRequired,
      VALIDATION.responseRoleRequired,
    ]);
    // The summary takes focus so the problem is announced.
    expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAccessible(page, 'response validation errors');

    await panel.getByLabel('Government response', { exact: true }).fill('   ');
    await panel.getByLabel('Your government role').selectOption('Home Secretary');
    await panel.getByRole('button', { name: 'Submit Response' }).click();
    await expect.poll(() => summary.getByRole('link').allTextContents()).toEqual([VALIDATION.responseRequired]);

    await panel.getByLabel('Government response', { exact: true }).fill('The Government will fund ten new libraries.');
    await panel.getByLabel('Your government role').selectOption('');
    await panel.getByRole('button', { name: 'Submit Response' }).click();
    await expect.poll(() => summary.getByRole('link').allTextContents()).toEqual([VALIDATION.responseRoleRequired]);
    // Following the link moves to the field.
    await summary.getByRole('link', { name: VALIDATION.responseRoleRequired }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('gov-response-role');
  });

  it('adds a response that then shows on the petition', async () => {
    const panel = page.getByRole('region', { name: 'Government Admin Panel' });
    await panel.getByLabel('Your government role').selectOption('Home Secretary');
    await panel.getByRole('button', { name: 'Submit Response' }).click();
    await expectOnPage(panel.getByRole('status').getByText(SUCCESS.responseAdded)).toBeVisible();
    const box = page.getByRole('region', { name: 'Government response', exact: true });
    await expectOnPage(box.getByText('The Government will fund ten new libraries.')).toBeVisible();
    await expectOnPage(box.getByText(/Responded by Home Secretary/)).toBeVisible();
    await expectOnPage(panel.getByRole('heading', { name: 'Edit Government Response' })).toBeVisible();
    await expectAccessible(page, 'response added');
  });

  it('edits the response, prefilled with the current text and office', async () => {
    const panel = page.getByRole('region', { name: 'Government Admin Panel' });
    const textarea = panel.getByLabel('Government response', { exact: true });
    expect(await textarea.inputValue()).toBe('The Government will fund ten new libraries.');
    expect(await panel.getByLabel('Your government role').inputValue()).toBe('Home Secretary');
    await textarea.fill('The Government will fund twelve new libraries.');
    await panel.getByRole('button', { name: 'Update Response' }).click();
    await expectOnPage(panel.getByRole('status').getByText('Government response updated successfully!')).toBeVisible();
    await expectOnPage(
      page.getByRole('region', { name: 'Government response', exact: true }).getByText('The Government will fund twelve new libraries.'),
    ).toBeVisible();
  });

  it('survives a reload: the edit form is prefilled from the server', async () => {
    await page.reload();
    const panel = page.getByRole('region', { name: 'Government Admin Panel' });
    await expectOnPage(panel.getByRole('heading', { name: 'Edit Government Response' })).toBeVisible();
    expect(await panel.getByLabel('Government response', { exact: true }).inputValue()).toBe(
      'The Government will fund twelve new libraries.',
    );
  });

  it('removes the response after confirming in a dialog', async () => {
    const panel = page.getByRole('region', { name: 'Government Admin Panel' });
    await panel.getByRole('button', { name: 'Remove Response' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove government response' });
    await expectOnPage(dialog).toBeVisible();
    await expectOnPage(dialog.getByText('Are you sure you want to remove the government response? This action cannot be undone.')).toBeVisible();
    // Focus starts on the safe choice.
    expect(await focusedName(page)).toBe('Cancel');
    await expectAccessible(page, 'remove response dialog');
    await dialog.getByRole('button', { name: 'Remove Response' }).click();
    await expectOnPage(panel.getByRole('status').getByText('Government response removed successfully!')).toBeVisible();
    await expectOnPage(panel.getByRole('heading', { name: 'Add Government Response' })).toBeVisible();
    expect(await page.getByRole('region', { name: 'Government response', exact: true }).count()).toBe(0);
  });

  it('fits a 360 px wide screen and raised no script errors', async () => {
    await page.setViewportSize(PHONE);
    await expectOnPage(page.getByRole('region', { name: 'Government Admin Panel' }).getByLabel('Your government role')).toBeVisible();
    await expectNoHorizontalScroll(page, 'Government Admin Panel at 360 px');
    expect(errors).toEqual([]);
  });
});
