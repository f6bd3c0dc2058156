/**
 * A term filter that names no term says so: `/petitions?term=999` does not invent a 'Term 999', and
 * `/petitions/term/abc` does not quietly list every petition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openSharedPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let page: Page;
let errors: string[];
let termId: number;

beforeAll(async () => {
  stack = await startStack();
  ({ id: termId } = await seedTerm(stack.context, { name: 'Term 87' }));
  await seedPetition(stack.context, { title: 'Plant trees along every road' });
  browser = await launchBrowser();
  ({ page, errors } = await openSharedPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const notice = () => page.getByRole('alert').filter({ hasText: ERRORS.termNotFound });

describe('unknown terms in the petition list', () => {
  it('says term 999 does not exist, and names no "Term 999"', async () => {
    await page.goto(`${stack.baseUrl}/petitions?term=999`);
    await expectOnPage(notice().getByText('There is no parliamentary term with the number 999.')).toBeVisible();
    await expectOnPage(page.getByRole('status').getByText(/Showing 0 petitions · Unknown term/)).toBeVisible();
    expect(await page.getByText('Term 999').count()).toBe(0);
    await expectAccessible(page, 'unknown term');
    await notice().getByRole('link', { name: 'Show all petitions' }).click();
    await expectOnPage(page.getByRole('heading', { name: 'Plant trees along every road' })).toBeVisible();
    expect(await notice().count()).toBe(0);
  });

  it('says /petitions/term/abc names no term, and a real term lists its petitions without the notice', async () => {
    await page.goto(`${stack.baseUrl}/petitions/term/abc`);
    await expectOnPage(notice().getByText('There is no parliamentary term "abc".')).toBeVisible();
    await page.goto(`${stack.baseUrl}/petitions/term/${termId}`);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Petitions in Term 87' })).toBeVisible();
    await expectOnPage(page.getByRole('heading', { name: 'Plant trees along every road' })).toBeVisible();
    expect(await notice().count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
