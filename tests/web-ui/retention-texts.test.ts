/**
 * The privacy policy and the account page state the retention periods the site is configured with
 * (GET /api/privacy/retention), not the defaults (docs/privacy.md#signer-retention).
 */
import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_RETENTION_MONTHS } from '../../src-shared/domain/feed-constants.ts';
import { DEFAULT_SIGNER_RETENTION_MONTHS } from '../../src-shared/domain/privacy-constants.ts';
import { RetentionSchema } from '../../src-shared/domain/privacy-schemas.ts';
import { seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

const SIGNER_MONTHS = 9;
const NOTIFICATION_MONTHS = 18;

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startStack({ config: { signerRetentionMonths: SIGNER_MONTHS, notificationRetentionMonths: NOTIFICATION_MONTHS } }),
    launchBrowser(),
  ]);
  await seedTerm(stack.context, { name: 'Term 90' });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it('answers the configured periods to anyone', async () => {
  // Not the defaults, or this test could not tell them apart.
  expect([SIGNER_MONTHS, NOTIFICATION_MONTHS]).not.toEqual([DEFAULT_SIGNER_RETENTION_MONTHS, DEFAULT_NOTIFICATION_RETENTION_MONTHS]);
  const response = await fetch(`${stack.baseUrl}/api/privacy/retention`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  expect(RetentionSchema.parse(await response.json())).toEqual({ signerMonths: SIGNER_MONTHS, notificationMonths: NOTIFICATION_MONTHS });
});

it('states them on the privacy policy', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${stack.baseUrl}/privacypolicy`);
  await expectOnPage(page.getByText(`Signers are anonymised ${SIGNER_MONTHS} months after a petition closes`)).toBeVisible();
  await expectOnPage(page.getByText(`is deleted ${NOTIFICATION_MONTHS} months after it happened`)).toBeVisible();
  await expectAccessible(page, 'privacy policy');
  expect(errors).toEqual([]);
});

it('states the signers period on the account page', async () => {
  const { page, errors } = await openPage(browser);
  await stack.signIn(page, 'Citizen');
  await page.goto(`${stack.baseUrl}/account`);
  await expectOnPage(page.getByText(`signers of a petition are anonymised ${SIGNER_MONTHS} months after it closes`)).toBeVisible();
  expect(errors).toEqual([]);
});
