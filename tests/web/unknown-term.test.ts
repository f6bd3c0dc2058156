/**
 * A term filter that names no term says so: `/petitions?term=999` does not invent a 'Term 999', and
 * `/petitions/term/abc` does not quietly list every petition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { seedPetition, seedTerm, startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { expectAccessible, launchBrowser, openPage } from './helpers.ts';

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
  ({ page, errors } = await openPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const notice = () => page.getByRole('alert').filter({ hasText: ERRORS.termNotFound });

describe('unknown terms in the petition list', () => {
  it('says term 999 does not exist, and names no "Term 999"', async () => {
    await page.goto(`${stack.baseUrl}/petitions?term=999`);
    await notice().getByText('There is no parliamentary term with the number 999.').waitFor();
    await page.getByRole('status').getByText(/Showing 0 petitions · Unknown term/).waitFor();
    expect(await page.getByText('Term 999').count()).toBe(0);
    await expectAccessible(page, 'unknown term');
    await notice().getByRole('link', { name: 'Show all petitions' }).click();
    await page.getByRole('heading', { name: 'Plant trees along every road' }).waitFor();
    expect(await notice().count()).toBe(0);
  });

  it('says /petitions/term/abc names no term, and a real term lists its petitions without the notice', async () => {
    await page.goto(`${stack.baseUrl}/petitions/term/abc`);
    await notice().getByText('There is no parliamentary term "abc".').waitFor();
    await page.goto(`${stack.baseUrl}/petitions/term/${termId}`);
    await page.getByRole('heading', { level: 1, name: 'Petitions in Term 87' }).waitFor();
    await page.getByRole('heading', { name: 'Plant trees along every road' }).waitFor();
    expect(await notice().count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
