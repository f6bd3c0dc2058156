/**
 * The first page's read (src-renderer/services/bootReads.ts): a visitor landing on a petition gets
 * it read once, started by the entry beside the page's chunk rather than by the page after its chunk
 * arrived; a later visit to a petition reads it afresh.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;
let first = 0;
let second = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  await seedTerm(stack.context, { name: 'Term 12' });
  first = (await seedPetition(stack.context, { title: 'Plant trees along the river', signatures: 4 })).id;
  second = (await seedPetition(stack.context, { title: 'Light the old bridge at night', signatures: 7 })).id;
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

interface PetitionRead {
  id: number;
  /** Script files on the stack that made the call, innermost first. */
  initiators: string[];
}

it('reads the landing petition once, from the entry, and a later visit afresh', async () => {
  const { context, page, errors } = await openPage(browser);
  const cdp = await context.newCDPSession(page);
  const reads: PetitionRead[] = [];
  cdp.on('Network.requestWillBeSent', (event) => {
    const match = /\/api\/petitions\/(\d+)$/.exec(new URL(event.request.url).pathname);
    if (!match || event.request.method !== 'GET') return;
    // An async call's stack continues in `parent` (the call before the await).
    const initiators: string[] = [];
    for (let stackTrace = event.initiator.stack; stackTrace; stackTrace = stackTrace.parent) {
      for (const frame of stackTrace.callFrames) initiators.push(new URL(frame.url, stack.baseUrl).pathname);
    }
    reads.push({ id: Number(match[1]), initiators });
  });
  await cdp.send('Network.enable');

  await page.goto(`${stack.baseUrl}/petition/${first}`);
  await expectOnPage(page.getByRole('heading', { level: 1, name: 'Plant trees along the river' })).toBeVisible();
  const landing = reads.filter((read) => read.id === first);
  expect(landing).toHaveLength(1);
  const scripts = landing[0]!.initiators.filter((file) => file.startsWith('/assets/'));
  expect(scripts.length).toBeGreaterThan(0);
  // Every frame is in the entry: the page's own chunk played no part in starting the read.
  expect(scripts.every((file) => /^\/assets\/index-[\w-]+\.js$/.test(file)), [...new Set(scripts)].join(', ')).toBe(true);

  // In the app, through the list: another petition, then the first again, each read by the page
  // itself; the landing read is not used again.
  await page.getByRole('link', { name: 'All petitions' }).first().click();
  await page.getByRole('link', { name: 'Light the old bridge at night' }).click();
  await expectOnPage(page.getByRole('heading', { level: 1, name: 'Light the old bridge at night' })).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: 'Plant trees along the river' }).click();
  await expectOnPage(page.getByRole('heading', { level: 1, name: 'Plant trees along the river' })).toBeVisible();
  await expect.poll(() => reads.filter((read) => read.id === first).length).toBe(2);
  expect(reads.filter((read) => read.id === second)).toHaveLength(1);
  expect(errors).toEqual([]);
});
