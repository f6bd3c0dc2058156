/**
 * Deleting data in the browser (docs/privacy.md#deleting-your-data): a member opens Account from the
 * header, is stopped by a wrong confirmation, types DELETE and is signed out with their signature
 * gone; the administrator deletes another member's data from Dangerous Actions.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION_CONFIRMATION, PRIVACY_ERRORS } from '../../src-shared/domain/privacy-constants.ts';
import { DEV_PERSONAS } from '../../src-server/dev/provider/index.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openSharedPage } from '../support/chromium.ts';
import { LOGIN_LABEL } from '../../src-renderer/components/Header.tsx';

let stack: Stack;
let browser: Browser;
let page: Page;
let petitionId: number;
const citizenId = DEV_PERSONAS.find((p) => p.label === 'Citizen')?.id ?? '';

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context, { name: 'Term 88' });
  petitionId = (await seedPetition(stack.context, { signatures: 3 })).id;
  page = (await openSharedPage(browser)).page;
  await stack.signIn(page, 'Citizen');
  await stack.context.db
    .insertInto('signatures')
    .values({ petition_id: petitionId, user_id: citizenId, username: 'citizen', display_name: 'Citizen', signed_at: new Date().toISOString() })
    .execute();
  await stack.context.db.updateTable('petitions').set({ signature_count: 4 }).where('id', '=', petitionId).execute();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const signatureCount = async () =>
  (await stack.context.db.selectFrom('petitions').select('signature_count').where('id', '=', petitionId).executeTakeFirstOrThrow()).signature_count;

describe('deleting data in the web app', () => {
  it('lets a member delete their data from the account menu after typing DELETE', async () => {
    await page.getByRole('banner').getByRole('link', { name: 'Account' }).click();
    await expectOnPage(page.getByRole('heading', { name: 'Delete your data' })).toBeVisible();
    await expectAccessible(page, 'account page');
    const confirmation = page.getByLabel(`Type ${ACCOUNT_DELETION_CONFIRMATION} to confirm`);
    await confirmation.fill('delete');
    await page.getByRole('button', { name: 'Delete my data' }).click();
    await expectOnPage(page.getByText(PRIVACY_ERRORS.deletionConfirmation).first()).toBeVisible();
    expect(await signatureCount()).toBe(4);

    await confirmation.fill(ACCOUNT_DELETION_CONFIRMATION);
    await page.getByRole('button', { name: 'Delete my data' }).click();
    await expectOnPage(page.getByText('Your data has been deleted and you have been signed out everywhere.')).toBeVisible();
    await expectOnPage(page.getByRole('button', { name: LOGIN_LABEL })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await signatureCount()).toBe(3);
    expect(await stack.context.db.selectFrom('users').select('id').where('id', '=', citizenId).executeTakeFirst()).toBeUndefined();
  });

  it("lets the administrator delete a member's data from Dangerous Actions", async () => {
    const memberId = '55501234';
    const stamp = new Date().toISOString();
    await stack.context.db
      .insertInto('users')
      .values({ id: memberId, username: 'askedfor', display_name: 'Asked For', avatar_url: null, citizen_rank: 1, government_rank: 0, groups_unavailable: 0, roles_checked_at: stamp, created_at: stamp, updated_at: stamp, account_created_at: null, account_verified: null })
      .execute();
    await stack.signIn(page, 'System Administrator');
    await page.goto(`${stack.baseUrl}/term-management`);
    const section = page.getByRole('form', { name: "Delete a member's data" });
    await section.getByLabel('ROBLOX user id').fill(memberId);
    const button = section.getByRole('button', { name: 'Delete Member Data' });
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel(`Type ${ACCOUNT_DELETION_CONFIRMATION} to confirm`).fill(ACCOUNT_DELETION_CONFIRMATION);
    await button.click();
    await expectOnPage(page.getByText(`Data of user ${memberId} deleted`)).toBeVisible();
    expect(await stack.context.db.selectFrom('users').select('id').where('id', '=', memberId).executeTakeFirst()).toBeUndefined();
  });
});
