/**
 * Screenshots of the console's moderation queue for docs/moderation.md (a script:
 * `node tests/console-ui/moderation-screenshots.ts`): the queue with marked cases and a decision on
 * its way, and a case with its reports and decisions. Same runtime and host as
 * `npm run console:browser`, real backend on a temporary database, Debian's Chromium.
 * Writes docs/screenshots/console-moderation-{queue,case}.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { seedPetition } from '../support/fixtures.ts';
import { signInFromConsole, startConsoleStack } from './harness.ts';
import { reportAsMembers, type Report } from './moderation-support.ts';

const OUT_DIR = path.resolve(import.meta.dirname, '../../docs/screenshots');

const CASES: [string, string, Report[]][] = [
  ['Rename the quillfeather square after our head teacher', 'Casey Citizen', [
    { reason: 'personal_information', details: 'It names a teacher at a real school.' },
    { reason: 'offensive' },
    { reason: 'other', details: 'The square already has a name.' },
  ]],
  ['Buy the new trainers at half price this weekend', 'Sam Seller', [{ reason: 'spam', details: 'An advert for a shop.' }, { reason: 'spam' }]],
  ['Longer opening hours for the central library', 'Lou Reader', [{ reason: 'other', details: 'Same as the library petition from last term.' }]],
  ['Free swimming lessons for every child under 12', 'Pat Swimmer', [{ reason: 'other', details: 'I do not like swimming.' }]],
];

async function main(): Promise<void> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const world = await startConsoleStack({ stack: { config: { logLevel: 'silent' } }, term: { name: '2026 Parliament' } });
  const { stack, browser } = world;
  const seeded = [];
  for (const [title, creatorName, reports] of CASES) {
    const petition = await seedPetition(stack.context, { title, signatures: 6, creatorName, creatorId: creatorName === 'Casey Citizen' ? '2001' : null });
    await reportAsMembers(stack, petition.id, reports);
    seeded.push(petition);
  }
  const instance = await world.openConsole();
  try {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, locale: 'en-GB', timezoneId: 'Europe/London' });
    const page = await context.newPage();
    await page.goto(instance.openAddress());
    await signInFromConsole(browser, page, instance, 'Leader of the House of Commons');
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.keyboard.press('3');
    await page.waitForFunction((n) => document.querySelectorAll('.console-row').length >= n, CASES.length);

    await page.getByRole('button', { name: new RegExp(seeded[0]!.title) }).click();
    await page.getByRole('heading', { level: 1, name: seeded[0]!.title }).waitFor();
    await page.screenshot({ path: path.join(OUT_DIR, 'console-moderation-case.png'), fullPage: true });

    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: new RegExp(seeded[2]!.title) }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: new RegExp(seeded[3]!.title) }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: new RegExp(seeded[0]!.title) }).focus();
    await page.waitForTimeout(7_000); // toasts fade
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT_DIR, 'console-moderation-queue.png') });
    await context.close();
    for (const name of ['console-moderation-queue.png', 'console-moderation-case.png']) {
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
