/**
 * Community safety in a real browser against the real server (docs/moderation.md): a member reports
 * a petition through the dialog, three reports hide it from the public, its creator sees the notice,
 * the Leader of the House restores it from the web queue and everything is back as it was; a
 * rejection shows the public a tombstone (or nothing, for a hidden reason); the create page offers
 * similar petitions. axe finds nothing on the dialog, the queue and the tombstone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import type { PetitionDetail } from '../../src-shared/domain/schemas.ts';
import { MODERATION_ERRORS } from '../../src-shared/rules/moderation.ts';
import { MODERATION_TEXTS } from '../../src-shared/domain/moderation-texts.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage, openSharedPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let page: Page;
let errors: string[];
let reported: number;
let before: PetitionDetail;

/** A member's session made through the session service (the browser signs in as the dev personas). */
async function memberCookie(id: string): Promise<string> {
  await stack.context.users.upsert({ id, username: `m${id}`, displayName: `Member ${id}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
  const { token } = await stack.context.sessions.create(id, 'web');
  return `${stack.context.cookie.name}=${token}`;
}

async function apiCall(path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.method && init.method !== 'GET' ? { [CSRF_HEADER]: CSRF_HEADER_VALUE } : {}),
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function expectStillHidden(): Promise<void> {
  expect((await apiCall(`/api/petitions/${reported}`)).status).toBe(404);
}

beforeAll(async () => {
  stack = await startStack();
  await seedTerm(stack.context);
  ({ id: reported } = await seedPetition(stack.context, { title: 'Rename the quillfeather square', signatures: 5, creatorId: '2001', creatorName: 'Casey Citizen' }));
  before = (await apiCall(`/api/petitions/${reported}`)).body as unknown as PetitionDetail;
  browser = await launchBrowser();
  ({ page, errors } = await openSharedPage(browser));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('reporting a petition', () => {
  it('opens the dialog, checks the reason, thanks the member and says what happens next', async () => {
    await stack.signIn(page, 'Cabinet Minister');
    await page.goto(`${stack.baseUrl}/petition/${reported}`);
    await page.getByRole('button', { name: MODERATION_TEXTS.reportButton }).click();
    const dialog = page.getByRole('dialog', { name: MODERATION_TEXTS.reportDialogTitle });
    await expectOnPage(dialog).toBeVisible();
    // Focus starts on the first reason.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('offensive');
    await expectAccessible(page, 'the report dialog');

    await dialog.getByRole('button', { name: MODERATION_TEXTS.submitReport }).click();
    await expectOnPage(dialog.getByText(MODERATION_ERRORS.reasonRequired)).toBeVisible();
    await dialog.getByRole('radio', { name: 'Other', exact: true }).check();
    await dialog.getByRole('button', { name: MODERATION_TEXTS.submitReport }).click();
    await expectOnPage(dialog.getByText(MODERATION_ERRORS.otherDetailsRequired)).toBeVisible();
    await expectAccessible(page, 'the report dialog with errors');
    await dialog.getByLabel(MODERATION_TEXTS.otherDetailsLabel).fill('It names a pupil at a real school.');
    await dialog.getByRole('button', { name: MODERATION_TEXTS.submitReport }).click();

    const thanks = page.getByRole('dialog', { name: MODERATION_TEXTS.thanksTitle });
    await expectOnPage(thanks.getByText(MODERATION_TEXTS.thanksNext)).toBeVisible();
    await expectAccessible(page, 'the thanks');
    await thanks.getByRole('button', { name: 'Close' }).click();
    await expectOnPage(page.getByText(MODERATION_TEXTS.alreadyReported)).toBeVisible();
    const stored = await stack.context.db.selectFrom('petition_reports').selectAll().where('petition_id', '=', reported).execute();
    expect(stored.map((r) => [r.reporter_id, r.reason, r.details])).toEqual([['2006', 'other', 'It names a pupil at a real school.']]);
  });

  it('does not offer the button to the creator', async () => {
    await stack.signIn(page, 'Citizen');
    await page.goto(`${stack.baseUrl}/petition/${reported}`);
    await expectOnPage(page.getByRole('heading', { name: 'Rename the quillfeather square' })).toBeVisible();
    expect(await page.getByRole('button', { name: MODERATION_TEXTS.reportButton }).count()).toBe(0);
  });
});

describe('three reports hide it', () => {
  it('is gone for the public within a second and its creator sees the notice', async () => {
    for (const id of ['760001', '760002']) {
      expect((await apiCall(`/api/petitions/${reported}/reports`, { method: 'POST', body: { reason: 'offensive' }, cookie: await memberCookie(id) })).status).toBe(201);
    }
    await expectStillHidden();
    const list = (await apiCall('/api/petitions?search=quillfeather')).body as { total: number };
    expect(list.total).toBe(0);

    const visitor = await openPage(browser);
    await visitor.page.goto(`${stack.baseUrl}/petition/${reported}`);
    await expectOnPage(visitor.page.getByRole('heading', { name: 'Petition Not Found' })).toBeVisible();
    await visitor.page.goto(`${stack.baseUrl}/petitions?search=quillfeather`);
    await expectOnPage(visitor.page.getByText('No petitions match your current filters.')).toBeVisible();

    // The page the creator still has open (signed in as Citizen above).
    await page.reload();
    await expectOnPage(page.getByRole('heading', { name: MODERATION_TEXTS.hiddenNotice })).toBeVisible();
    await expectOnPage(page.getByText(MODERATION_TEXTS.hiddenNoticeDetail)).toBeVisible();
    expect(await page.getByRole('button', { name: /Sign this petition|Remove signature/ }).count()).toBe(0);
  });
});

describe('the Leader of the House restores it from the web queue', () => {
  it('shows the case with its reports, passes axe, and brings everything back', async () => {
    await stack.signIn(page, 'Leader of the House of Commons');
    await page.locator('header').getByRole('link', { name: 'Moderation' }).click();
    await expectOnPage(page.getByRole('heading', { name: MODERATION_TEXTS.queueTitle, level: 1 })).toBeVisible();
    const card = page.getByRole('article', { name: /Rename the quillfeather square/ });
    await expectOnPage(card.getByText('It names a pupil at a real school.')).toBeVisible();
    await expectAccessible(page, 'the moderation queue');

    await card.getByRole('button', { name: 'Restore' }).click();
    await expectOnPage(page.getByText('Rename the quillfeather square: Restored: the petition is back on the site.')).toBeVisible();
    const after = (await apiCall(`/api/petitions/${reported}`)).body as unknown as PetitionDetail;
    const { version: _v1, ...was } = before;
    const { version: _v2, ...now } = after;
    expect(now).toEqual(was);
    expect(((await apiCall('/api/petitions?search=quillfeather')).body as { total: number }).total).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('rejection', () => {
  it('shows the public a tombstone with the reason’s text, and nothing at all for a hidden reason', async () => {
    const { id: duplicate } = await seedPetition(stack.context, { title: 'A copy of another petition' });
    const { id: personal } = await seedPetition(stack.context, { title: 'A petition naming someone' });
    await page.goto(`${stack.baseUrl}/petition/${duplicate}`);
    const panel = page.getByRole('region', { name: 'Government Admin Panel' });
    await panel.getByLabel('Rejection reason').selectOption('duplicate');
    await panel.getByRole('button', { name: 'Reject' }).click();
    await expectOnPage(panel.getByText('Rejected.', { exact: true })).toBeVisible();
    const leader = await apiCall(`/api/petitions/${personal}`);
    expect(leader.status).toBe(200);
    expect((await apiCall(`/api/petitions/${personal}/moderation`, { method: 'POST', body: { decision: 'reject', reasonCode: 'personal_information' } })).status).toBe(401);

    const visitor = await openPage(browser);
    await visitor.page.goto(`${stack.baseUrl}/petition/${duplicate}`);
    await expectOnPage(visitor.page.getByRole('heading', { name: MODERATION_TEXTS.rejectedHeading })).toBeVisible();
    await expectOnPage(visitor.page.getByText('There is already a petition about the same thing. Please sign that petition instead.')).toBeVisible();
    expect(await visitor.page.getByText('A copy of another petition').count()).toBe(0);
    await expectAccessible(visitor.page, 'the tombstone');

    await page.goto(`${stack.baseUrl}/petition/${personal}`);
    await panel.getByLabel('Rejection reason').selectOption('personal_information');
    await panel.getByRole('button', { name: 'Reject' }).click();
    await expectOnPage(panel.getByText('Rejected.', { exact: true })).toBeVisible();
    await visitor.page.goto(`${stack.baseUrl}/petition/${personal}`);
    await expectOnPage(visitor.page.getByRole('heading', { name: 'Petition Not Found' })).toBeVisible();
  });
});

describe('similar petitions before posting', () => {
  it('lists open petitions that look alike as the title is typed, each linked', async () => {
    await seedPetition(stack.context, { title: 'Build a velodrome in Larkspur Vale' });
    await stack.signIn(page, 'Citizen');
    await page.goto(`${stack.baseUrl}/create-petition`);
    await page.getByLabel('Title').fill('A velodrome for Larkspur');
    const similar = page.getByRole('region', { name: `${MODERATION_TEXTS.similarHeading}: ${MODERATION_TEXTS.similarLead}` });
    await expectOnPage(similar.getByRole('link', { name: 'Build a velodrome in Larkspur Vale' })).toBeVisible();
    await expectAccessible(page, 'the create page with similar petitions');
  });
});
