/**
 * README screenshots of the console (a script: `npm run screenshots:console`): the response queue,
 * the outbox with a conflict, a queued and an applied action, and the conflict card. Same runtime and
 * host as `npm run console:browser`, real backend on a temporary database, Debian's Chromium.
 * Writes docs/screenshots/console-{queue,outbox,conflict}.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { appFetch, signInAs } from '../server-auth/browser.ts';
import { seedPetition } from '../support/fixtures.ts';
import { signInFromConsole, startConsoleStack } from './harness.ts';

const OUT_DIR = path.resolve(import.meta.dirname, '../../docs/screenshots');

const PETITIONS: [string, number][] = [
  ['Longer opening hours for the central library', 41],
  ['Free swimming lessons for every child under 12', 33],
  ['More buses on Sundays and bank holidays', 27],
  ['Plant a thousand trees along the river', 19],
  ['Publish the minutes of every cabinet meeting', 16],
  ['Lower the voting age in group elections to 13', 14],
  ['A yearly festival for the whole community', 12],
  ['Build a skate park next to the old market', 11],
];

async function main(): Promise<void> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const world = await startConsoleStack({ stack: { config: { logLevel: 'silent' } }, term: { name: '2026 Parliament' } });
  const { stack, browser } = world;
  const seeded = [];
  for (const [title, signatures] of PETITIONS) {
    seeded.push(await seedPetition(stack.context, { title, signatures, status: 'awaiting_government_response', tags: ['Public Services'] }));
  }
  const forwarder = await world.forwarder();
  const instance = await world.openConsole({ apiBaseUrl: forwarder.url });
  try {
    const context = await browser.newContext({ viewport: { width: 1100, height: 820 }, locale: 'en-GB', timezoneId: 'Europe/London' });
    const page = await context.newPage();
    await page.goto(instance.openAddress());
    await signInFromConsole(browser, page, instance, 'Cabinet Minister');
    await page.waitForFunction((n) => document.querySelectorAll('.console-row').length >= n, PETITIONS.length);

    // One answered and applied, to show the whole life of an action.
    await page.getByRole('button', { name: new RegExp(seeded[7]!.title) }).click();
    await page.getByRole('textbox', { name: 'Government response' }).fill('A site by the old market has been set aside for it.');
    await page.getByRole('combobox', { name: 'Your government role' }).selectOption('Culture, Media and Sport Secretary');
    await page.getByRole('button', { name: 'Submit Response' }).click();
    await page.waitForFunction(() => document.querySelector('.console-badge')?.textContent?.startsWith('0 queued · 0 sending'));

    // A conflict: the Prime Minister answers on the website while this minister is writing.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: new RegExp(seeded[1]!.title) }).click();
    const pm = await signInAs(stack, 'Prime Minister');
    await appFetch(stack, pm.jar, `/api/petitions/${seeded[1]!.id}/government-response`, {
      method: 'POST',
      body: { response_text: 'Swimming lessons will be free for under-12s at every public pool from April.', added_by_role: 'Prime Minister' },
    });
    await page.getByRole('textbox', { name: 'Government response' }).fill('Free lessons will start in the summer holidays, in every pool run by the council.');
    await page.getByRole('combobox', { name: 'Your government role' }).selectOption('Education Secretary');
    await page.getByRole('button', { name: 'Submit Response' }).click();
    await page.waitForFunction(() => document.querySelector('.console-badge')?.textContent?.includes('1 need attention'));

    // And one queued while the backend is out of reach.
    await forwarder.down();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: new RegExp(seeded[2]!.title) }).click();
    await page.getByRole('textbox', { name: 'Government response' }).fill('Sunday services will run every 30 minutes from May.');
    await page.getByRole('button', { name: 'Submit Response' }).click();
    await page.waitForFunction(() => document.querySelector('.console-connection')?.textContent?.includes('Offline'), undefined, { timeout: 15_000 });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.activeElement?.classList.contains('console-row'));
    await page.waitForTimeout(7_000); // toasts fade
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT_DIR, 'console-queue.png') });

    await page.keyboard.press('o');
    const outbox = page.getByRole('dialog', { name: 'Outbox' });
    await outbox.waitFor();
    await page.setViewportSize({ width: 1100, height: 900 });
    await outbox.screenshot({ path: path.join(OUT_DIR, 'console-outbox.png') });
    await outbox.locator('.console-conflict').screenshot({ path: path.join(OUT_DIR, 'console-conflict.png') });
    await context.close();
    for (const name of ['console-queue.png', 'console-outbox.png', 'console-conflict.png']) {
      console.log(`${name}: ${(fs.statSync(path.join(OUT_DIR, name)).size / 1024).toFixed(0)} KB`);
    }
  } finally {
    await world.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
