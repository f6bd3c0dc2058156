/** A visitor who is not signed in: browse, search, sort, filter, open petitions, error screens. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { CLOSURE_NOTICE, ERRORS } from '../../src-shared/domain/messages.ts';
import { PAGE_TITLE } from '../../src-shared/domain/constants.ts';
import { expectNoHorizontalScroll } from './helpers.ts';
import { expectAccessible, expectOnPage, launchBrowser, openPage, PHONE } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
const ids: Record<string, number> = {};
let oldTermId = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  const day = 24 * 3600 * 1000;
  const now = Date.now();
  const old = await seedTerm(stack.context, {
    name: 'Term 86',
    startDate: new Date(now - 400 * day).toISOString().slice(0, 10),
    endDate: new Date(now - 40 * day).toISOString().slice(0, 10),
  });
  oldTermId = old.id;
  await seedTerm(stack.context, { name: 'Term 87' });
  ids.roads = (
    await seedPetition(stack.context, {
      title: 'Build more roads in Bloxburg',
      description: 'Roads in the capital are too narrow and traffic is terrible at peak hours every day.',
      tags: ['Budget', 'Public Services'],
      signatures: 12,
      createdAt: new Date(now - 3 * day),
    })
  ).id;
  ids.library = (
    await seedPetition(stack.context, {
      title: 'Open a new library',
      description: 'Libraries help citizens learn and meet each other; the capital deserves a proper one.',
      tags: ['Public Services'],
      signatures: 3,
      createdAt: new Date(now - 2 * day),
    })
  ).id;
  ids.cars = (
    await seedPetition(stack.context, {
      title: 'Ban noisy cars at night',
      description: 'Noisy cars disturb everyone at night and make the city an unpleasant place to live.',
      tags: ['Laws'],
      signatures: 25,
      status: 'awaiting_debate_in_parliament',
      governmentResponse: 'The Government agrees and will draft a law on noisy vehicles.',
      debateInfo: { status: 'scheduled', date: '2027-01-15', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null },
      createdAt: new Date(now - 5 * day),
    })
  ).id;
  ids.closed = (
    await seedPetition(stack.context, {
      title: 'Old closed petition about taxes',
      description: 'This petition closed because it did not reach ten signatures within three weeks.',
      tags: ['Budget'],
      signatures: 2,
      status: 'closed',
      termId: old.id,
      createdAt: new Date(now - 100 * day),
    })
  ).id;
  ids.fresh = (
    await seedPetition(stack.context, {
      title: 'Plant trees along the river',
      description: 'Trees along the river would give shade, clean the air and make walks more pleasant.',
      tags: ['Public Services'],
      signatures: 0,
      createdAt: new Date(now - 1 * day),
    })
  ).id;
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('visitor journeys', () => {
  it('home: title, header, stats, popular petitions, start block for visitors, footer', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/`);
    await expect.poll(() => page.title()).toBe(PAGE_TITLE);
    await expectOnPage(page.getByRole('button', { name: 'Login with ROBLOX' })).toBeVisible();
    await expectOnPage(page.getByRole('heading', { name: 'Popular petitions in Term 87' })).toBeVisible();
    const popular = page.locator('.popular .card__title');
    await expect.poll(() => popular.allInnerTexts()).toEqual([
      'Ban noisy cars at night',
      'Build more roads in Bloxburg',
      'Open a new library',
      'Plant trees along the river',
    ]);
    await expectOnPage(page.getByText('Connect your ROBLOX account to start creating petitions')).toBeVisible();
    expect(await page.getByRole('button', { name: 'Connect Account to Start' }).isDisabled()).toBe(true);
    const stats = await page.locator('.stats').innerText();
    expect(stats).toContain('4');
    expect(stats).toContain('petitions created');
    const footer = await page.locator('footer').innerText();
    for (const part of ['Navigation', 'Legal', 'How it works', '10 signatures', '20 signatures', 'Not affiliated with the UK Government', '13 or older']) {
      expect(footer).toContain(part);
    }
    await expectAccessible(page, 'home (visitor)');
    expect(errors).toEqual([]);
  });

  it('search from home goes to /petitions?search= and shows the count line', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/`);
    await page.getByLabel('Search petitions').fill('roads');
    await page.getByLabel('Search petitions').press('Enter');
    await page.waitForURL(/\/petitions\?search=roads$/);
    await expectOnPage(page.getByText('Showing 1 petition matching "roads"')).toBeVisible();
    expect(await page.locator('.card__title').allInnerTexts()).toEqual(['Build more roads in Bloxburg']);
    // The list's own search box, with the button this time.
    await page.getByLabel('Search petitions').fill('library');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/search=library/);
    await expectOnPage(page.getByText('Showing 1 petition matching "library"')).toBeVisible();
    await expectAccessible(page, 'petition list (search)');
  });

  it('sorts by the five options', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petitions`);
    const titles = () => page.locator('.card__title').allInnerTexts();
    await expect.poll(titles).toEqual([
      'Ban noisy cars at night',
      'Build more roads in Bloxburg',
      'Open a new library',
      'Old closed petition about taxes',
      'Plant trees along the river',
    ]);
    const sort = page.getByLabel('Sort by');
    expect(await sort.locator('option').allInnerTexts()).toEqual([
      'Most signatures',
      'Newest',
      'Oldest',
      'Fewest signatures',
      'Alphabetical',
    ]);
    await sort.selectOption('fewest_signatures');
    await page.waitForURL(/sort=fewest_signatures/);
    await expect.poll(async () => (await titles())[0]).toBe('Plant trees along the river');
    await sort.selectOption('newest');
    await expect.poll(async () => (await titles())[0]).toBe('Plant trees along the river');
    await sort.selectOption('oldest');
    await expect.poll(async () => (await titles())[0]).toBe('Old closed petition about taxes');
    await sort.selectOption('alphabetical');
    await expect.poll(async () => (await titles())[0]).toBe('Ban noisy cars at night');
  });

  it('filters by status, tag and term from collapsible filters kept in the URL', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petitions`);
    await expectOnPage(page.getByText(/Showing 5 petitions/)).toBeVisible();
    await page.getByText('Filters', { exact: true }).click();
    await page.getByLabel('Status').selectOption('closed');
    await page.waitForURL(/status=closed/);
    await expectOnPage(page.getByText('Showing 1 petition · Closed petitions')).toBeVisible();
    await page.getByLabel('Status').selectOption('all');
    await page.getByLabel('Tag', { exact: true }).selectOption('Public Services');
    await expectOnPage(page.getByText('Showing 3 petitions · tagged Public Services')).toBeVisible();
    await page.getByLabel('Tag', { exact: true }).selectOption('');
    await page.getByLabel('Parliamentary term').selectOption({ label: 'Term 86' });
    await page.waitForURL(new RegExp(`term=${oldTermId}`));
    await expectOnPage(page.getByText('Showing 1 petition · Term 86')).toBeVisible();
    await expectAccessible(page, 'petition list (filters open)');
    // The CSV link carries the same filters.
    const csv = await page.getByRole('link', { name: 'Download this list (CSV)' }).getAttribute('href');
    expect(csv).toContain(`/api/petitions.csv?`);
    expect(csv).toContain(`term=${oldTermId}`);
    // A reload keeps the filters (they live in the URL).
    await page.reload();
    await expectOnPage(page.getByText('Showing 1 petition · Term 86')).toBeVisible();
    await page.goto(`${stack.baseUrl}/petitions?search=zzzz-nothing`);
    await expectOnPage(page.getByText('No petitions match your current filters.')).toBeVisible();
    await expectAccessible(page, 'petition list (empty)');
  });

  it('/petitions/term/{id} redirects to /petitions?term={id}', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petitions/term/${oldTermId}`);
    await page.waitForURL(new RegExp(`/petitions\\?term=${oldTermId}$`));
    await expectOnPage(page.getByText('Showing 1 petition · Term 86')).toBeVisible();
  });

  it('opens a petition: content in order, boxes, signers with "+ N more", login to sign', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petitions`);
    await page.getByRole('link', { name: 'Ban noisy cars at night' }).click();
    await page.waitForURL(new RegExp(`/petition/${ids.cars}$`));
    const h1 = page.getByRole('heading', { level: 1, name: 'Ban noisy cars at night' });
    await expectOnPage(h1).toBeVisible();
    // Focus moves to the new page's heading after navigation.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await expectOnPage(page.getByText('This petition was submitted during Term 87.')).toBeVisible();
    await expectOnPage(page.getByText('Created by Seed Creator')).toBeVisible();
    await expectOnPage(page.getByText('The Government agrees and will draft a law on noisy vehicles.')).toBeVisible();
    await expectOnPage(page.getByText(/This petition is scheduled for debate on 15 January 2027/)).toBeVisible();
    await expectOnPage(page.getByText('This petition has reached 10 signatures and will receive a government response.')).toBeVisible();
    await expectOnPage(page.getByText('This petition has reached 20 signatures and will be considered for debate in Parliament.')).toBeVisible();
    await expectOnPage(page.getByRole('button', { name: 'Login to sign this petition' })).toBeVisible();
    const order = await page.evaluate(() => {
      const article = document.querySelector('article.petition')!;
      const find = (sel: string) => article.querySelector(sel);
      const els = ['.badge', 'h1', '.petition__creator', '.tags', '.petition__description', '.petition__count', '.milestone', '.sign', '.box--response', '.box--debate', '.signers'].map(find);
      return els.every((el, i) => i === 0 || (els[i - 1]!.compareDocumentPosition(el!) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
    });
    expect(order).toBe(true);
    const signers = page.locator('.signers__list > li');
    expect(await signers.count()).toBe(10);
    await page.getByRole('button', { name: '+ 15 more signatures' }).click();
    await expect.poll(() => signers.count()).toBe(25);
    // Beyond the spec: progress bars, the lazily loaded chart, and copy-link.
    expect(await page.getByRole('progressbar').count()).toBe(2);
    // The chart loads as its section comes near the viewport (src-renderer/pages/detail/PetitionDetailPage.tsx).
    await page.getByRole('heading', { name: 'Signatures over time' }).scrollIntoViewIfNeeded();
    await expectOnPage(page.getByRole('img', { name: /Line chart of signatures over time/ })).toBeVisible();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expectOnPage(page.getByText('Link copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${stack.baseUrl}/petition/${ids.cars}`);
    await expectAccessible(page, 'petition detail (visitor)');
    expect(errors).toEqual([]);
  });

  it('a petition without signatures invites the first signature', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petition/${ids.fresh}`);
    await expectOnPage(page.getByText('Be the first to sign this petition')).toBeVisible();
  });

  it('a closed petition shows the closure notice and no sign button', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petition/${ids.closed}`);
    await expectOnPage(page.getByRole('heading', { name: CLOSURE_NOTICE.heading })).toBeVisible();
    await expectOnPage(page.getByText(CLOSURE_NOTICE.insufficientSignatures)).toBeVisible();
    await expectOnPage(page.getByText(CLOSURE_NOTICE.noMoreSignatures, { exact: true })).toBeVisible();
    await expectOnPage(page.getByText(CLOSURE_NOTICE.noMoreSignaturesDetail, { exact: true })).toBeVisible();
    expect(await page.getByRole('button', { name: /sign this petition/i }).count()).toBe(0);
    await expectOnPage(page.getByText('This petition was submitted during Term 86.')).toBeVisible();
    // Term 86 has no other petitions: the link says so instead of opening an empty list.
    await page.getByRole('link', { name: 'View other petitions from Term 86' }).click();
    await expectOnPage(page.getByText('There are no other petitions from Term 86.')).toBeVisible();
    await expectAccessible(page, 'petition detail (closed)');
  });

  it("unknown petition: 'Petition Not Found'; failure: 'Error Loading Petition'; unknown path: 'Page Not Found'", async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/petition/987654`);
    await expectOnPage(page.getByRole('heading', { name: 'Petition Not Found' })).toBeVisible();
    await expectOnPage(page.getByText("doesn't exist or may have been removed")).toBeVisible();
    await expectAccessible(page, 'petition not found');
    await page.getByRole('button', { name: 'Return to Home' }).click();
    await page.waitForURL(`${stack.baseUrl}/`);
    // Any other failure: 'Error Loading Petition' (the server is made to fail for this one call).
    await page.route(`**/api/petitions/${ids.library}`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Something went wrong on our side' }),
      }),
    );
    await page.goto(`${stack.baseUrl}/petition/${ids.library}`);
    await expectOnPage(page.getByRole('heading', { name: 'Error Loading Petition' })).toBeVisible();
    await expectOnPage(page.getByText('There was an error loading the petition. Please try again.')).toBeVisible();
    await expectAccessible(page, 'error loading petition');
    await page.unroute(`**/api/petitions/${ids.library}`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Open a new library' })).toBeVisible();
    await page.goto(`${stack.baseUrl}/no/such/page`);
    await expectOnPage(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expectAccessible(page, 'page not found');
    await page.getByRole('button', { name: 'Return to Home' }).click();
    await page.waitForURL(`${stack.baseUrl}/`);
  });

  it("create page asks for an account; term management is denied; legal pages", async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.baseUrl}/create-petition`);
    await expectOnPage(page.getByRole('heading', { name: 'Start a petition' })).toBeVisible();
    await expectOnPage(page.getByText('Account Required: Connect your ROBLOX account to start a petition.')).toBeVisible();
    await expectAccessible(page, 'create petition (visitor)');
    await page.goto(`${stack.baseUrl}/term-management`);
    await expectOnPage(page.getByText(ERRORS.adminOnly)).toBeVisible();
    await page.goto(`${stack.baseUrl}/privacypolicy`);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    expect(await page.locator('main').innerText()).toContain('ROBLOX user id');
    await expectAccessible(page, 'privacy policy');
    await page.locator('footer').getByRole('link', { name: 'Terms and Conditions' }).click();
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
    await expectAccessible(page, 'terms and conditions');
  });

  it('fits a 360 px phone without sideways scrolling', async () => {
    const { page } = await openPage(browser, PHONE);
    for (const path of ['/', '/petitions?status=closed', `/petition/${ids.cars}`, '/create-petition']) {
      await page.goto(`${stack.baseUrl}${path}`);
      await expectOnPage(page.locator('main h1')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoHorizontalScroll(page, path);
    }
  });
});
