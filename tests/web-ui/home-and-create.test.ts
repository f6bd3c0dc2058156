/**
 * Small things new users tripped over (issue 15): the home stats with no current term, the start
 * button at the daily limit, the create form's errors following the draft and the sixth tag, and
 * the staff panel link at the top of a petition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { TAGS } from '../../src-shared/domain/constants.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { VALID_DESCRIPTION, apiPost } from './helpers.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('home and create form', () => {
  it('with no current term the stats say so instead of "This term" over zeros', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(page.getByRole('heading', { level: 2, name: 'No current term' })).toBeVisible();
    await expectOnPage(page.getByText('No parliamentary term is in progress, so there are no figures for this term.')).toBeVisible();
    expect(await page.getByRole('heading', { name: /^This term/ }).count()).toBe(0);
    expect(await page.locator('.stats__list').count()).toBe(0);
    await context.close();

    // Once a term is current the figures come back under its name.
    const term = await seedTerm(stack.context, { name: 'Term 88' });
    const again = await openPage(browser);
    await again.page.goto(`${stack.baseUrl}/`);
    await expectOnPage(again.page.getByRole('heading', { level: 2, name: `This term: ${term.name}` })).toBeVisible();
  });

  it('create form: an error goes as soon as the field is valid; a sixth tag says "Maximum 5 tags allowed"', async () => {
    const { page } = await openPage(browser);
    await stack.signIn(page, 'Citizen');
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByLabel('Title')).toBeVisible();
    await page.getByRole('button', { name: 'Create petition' }).click();
    const tagsGroup = page.getByRole('group', { name: 'Tags' });
    await expectOnPage(tagsGroup.getByText(VALIDATION.tagsRequired)).toBeVisible();
    await expectOnPage(page.locator('#petition-title-error').getByText(VALIDATION.titleRequired)).toBeVisible();

    // One tag: its error goes at once, the title's stays until the title is valid.
    await page.getByRole('button', { name: TAGS[0], exact: true }).click();
    expect(await tagsGroup.getByText(VALIDATION.tagsRequired).count()).toBe(0);
    expect(await page.locator('#petition-title-error').count()).toBe(1);
    await page.getByLabel('Title').fill('Keep');
    await expectOnPage(page.locator('#petition-title-error').getByText(VALIDATION.titleTooShort)).toBeVisible();
    await page.getByLabel('Title').fill('Keep the libraries open');
    expect(await page.locator('#petition-title-error').count()).toBe(0);

    for (const tag of TAGS.slice(1, 5)) await page.getByRole('button', { name: tag, exact: true }).click();
    await expectOnPage(tagsGroup.getByText('5 of 5 selected.')).toBeVisible();
    await page.getByRole('button', { name: TAGS[5], exact: true }).click();
    await expectOnPage(tagsGroup.getByText(VALIDATION.tagsTooMany)).toBeVisible();
    expect(await page.getByRole('button', { name: TAGS[5], exact: true }).getAttribute('aria-pressed')).toBe('false');
    await expectOnPage(tagsGroup.getByText('5 of 5 selected.')).toBeVisible();
    await expectAccessible(page, 'create form (sixth tag)');

    // Deselecting one makes room again; the message goes.
    await page.getByRole('button', { name: TAGS[4], exact: true }).click();
    expect(await tagsGroup.getByText(VALIDATION.tagsTooMany).count()).toBe(0);
    await expectOnPage(tagsGroup.getByText('4 of 5 selected.')).toBeVisible();
  });

  it('at the daily limit the home page offers no active "Start a petition" and says why', async () => {
    const { page } = await openPage(browser);
    await stack.signIn(page, 'Citizen');
    await page.goto(`${stack.baseUrl}/`);
    await expectOnPage(page.locator('.start-block').getByRole('link', { name: 'Start a petition' })).toBeVisible();
    for (let n = 1; n <= 3; n++) {
      const created = await apiPost(page, stack.baseUrl, '/api/petitions', {
        title: `Daily limit petition number ${n}`,
        description: VALID_DESCRIPTION,
        tags: ['Budget'],
      });
      expect(created.status(), await created.text()).toBe(201);
    }
    await page.goto(`${stack.baseUrl}/`);
    const start = page.locator('.start-block');
    await expectOnPage(start.getByText('Rate Limit: You can create 3 petitions per day')).toBeVisible();
    await expectOnPage(start.getByText('You can only create three petitions per day. Please try again tomorrow.')).toBeVisible();
    expect(await start.getByRole('button', { name: 'Daily Limit Reached' }).isDisabled()).toBe(true);
    expect(await start.getByRole('link', { name: 'Start a petition' }).count()).toBe(0);
    await expectAccessible(page, 'home (daily limit)');
  });

  it('staff see a link at the top of a petition that takes them to their panel', async () => {
    const petition = await seedPetition(stack.context, { title: 'A petition with many signers', signatures: 30 });
    const citizen = await openPage(browser);
    await citizen.page.goto(`${stack.baseUrl}/petition/${petition.id}`);
    await expectOnPage(citizen.page.getByRole('heading', { level: 1, name: petition.title })).toBeVisible();
    expect(await citizen.page.getByRole('link', { name: 'Go to the Government Admin Panel' }).count()).toBe(0);
    await citizen.context.close();

    const { page } = await openPage(browser);
    await stack.signIn(page, 'Leader of the House of Commons');
    await page.goto(`${stack.baseUrl}/petition/${petition.id}`);
    const link = page.getByRole('link', { name: 'Go to the Government Admin Panel' });
    await expectOnPage(link).toBeVisible();
    // It comes before the petition's own heading, so it is the first thing staff reach.
    const order = await page.evaluate(() => {
      const anchor = document.querySelector('.staff-panel-link a');
      const heading = document.querySelector('main h1');
      return anchor && heading ? anchor.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    expect(order).toBeTruthy();
    await expectOnPage(page.getByRole('heading', { name: 'Government Admin Panel' })).toBeVisible();
    await link.click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('government-admin-panel');
    await expect
      .poll(() => page.evaluate(() => Math.round(document.getElementById('government-admin-panel')!.getBoundingClientRect().top)))
      .toBeLessThan(50);
    await expectAccessible(page, 'petition (staff link)');
  });
});
