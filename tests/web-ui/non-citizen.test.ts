/** A signed-in user who is not a British Citizen: may browse, may not create or sign. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let petitionId = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context, { name: 'Term 87' });
  petitionId = (await seedPetition(stack.context, { title: 'Lower the group tax', signatures: 4 })).id;
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('non-citizen journeys', () => {
  it('sees Permission Required and cannot sign', async () => {
    const { page, errors } = await openPage(browser);
    await stack.signIn(page, 'Non-citizen');
    const header = page.locator('header');
    await expectOnPage(header.getByText('Vic Visitor', { exact: true })).toBeVisible();

    await expectOnPage(page.getByText('You need to be a British Citizen to create petitions.')).toBeVisible();
    expect(await page.getByRole('button', { name: 'Insufficient Permissions' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'home (non-citizen)');

    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByText(ERRORS.createPermission)).toBeVisible();
    expect(await page.getByLabel('Title').count()).toBe(0);
    await expectAccessible(page, 'create petition (permission required)');

    await page.goto(`${stack.baseUrl}/petition/${petitionId}`);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Lower the group tax' })).toBeVisible();
    await expectOnPage(page.getByText('Only British Citizens can sign petitions.')).toBeVisible();
    expect(await page.getByRole('button', { name: /sign this petition/i }).count()).toBe(0);
    await expectAccessible(page, 'petition detail (non-citizen)');

    // The server refuses too, whatever the page shows.
    const refused = await page.request.post(`${stack.baseUrl}/api/petitions/${petitionId}/sign`, {
      data: {},
      headers: { 'x-petitions-csrf': '1' },
    });
    expect(refused.status()).toBe(403);
    expect(errors).toEqual([]);
  });
});
