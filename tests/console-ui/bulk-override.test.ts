/**
 * Journey: the administrator overrides the status of 50 petitions at once, two of which another
 * staff member changed meanwhile: 48 applied and 2 conflicts, shown per petition; retrying the
 * failures (on the server's current versions) applies them too. The command palette leads there.
 */
import { describe, expect, it } from 'vitest';
import { appFetch, signInAs } from '../server-auth/browser.ts';
import { auditCount, seedPetition } from '../support/fixtures.ts';
import { type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { expectAccessible, expectOnPage } from '../support/chromium.ts';

let instance: ConsoleInstance;
const petitions: { id: number; title: string }[] = [];

const journey = consoleJourney(async ({ stack, openConsole }) => {
  for (let i = 1; i <= 50; i++) {
    petitions.push(await seedPetition(stack.context, { title: `Bulk petition number ${String(i).padStart(2, '0')}`, signatures: 1 }));
  }
  await seedPetition(stack.context, { title: 'Not part of the batch', signatures: 1 });
  instance = await openConsole();
});

describe('bulk status override', () => {
  it('applies 48, reports 2 conflicts per item, and applies those on retry', async () => {
    const { page, errors } = await journey.signedInPage(instance, 'System Administrator');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Awaiting government response' })).toBeVisible();

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expectOnPage(palette.getByRole('combobox')).toBeVisible();
    await page.keyboard.type('bulk');
    await expectAccessible(page, 'command palette');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Bulk status override' })).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search' }).fill('Bulk petition');
    await page.getByRole('button', { name: 'Select all 50 matching' }).click();
    await page.getByRole('combobox', { name: 'New status' }).selectOption('closed');
    await expect.poll(() => page.getByTestId('bulk-preview').innerText()).toBe('50 selected · 50 will change to Closed · 0 already have it');
    await expectAccessible(page, 'bulk override preview');

    // Meanwhile, on the website, the Leader of the House answers two of them (new versions).
    const leader = await signInAs(journey.stack, 'Leader of the House of Commons');
    for (const changed of [petitions[3]!, petitions[7]!]) {
      const answer = await appFetch(journey.stack, leader.jar, `/api/petitions/${changed.id}/government-response`, {
        method: 'POST',
        body: { response_text: 'Answered on the website.', added_by_role: 'Leader of the House of Commons' },
      });
      expect(answer.status).toBe(200);
    }

    await page.getByRole('button', { name: 'Apply to 50 petitions' }).click();
    const counts = page.getByTestId('bulk-counts');
    await expect.poll(() => counts.innerText(), { timeout: 30_000 }).toBe('48 applied · 2 conflict');
    const conflictRows = page.locator('tr[data-result="conflict"]');
    expect(await conflictRows.count()).toBe(2);
    const conflictTexts = (await conflictRows.allInnerTexts()).join('\n');
    for (const changed of [petitions[3]!, petitions[7]!]) expect(conflictTexts).toContain(`#${changed.id} ${changed.title}`);
    expect(conflictTexts).toContain('Now Government responded (version 2)');
    await expectAccessible(page, 'bulk override results');

    await page.getByRole('button', { name: 'Retry 2 failures' }).click();
    await expect.poll(() => counts.innerText(), { timeout: 30_000 }).toBe('50 applied');

    const statuses = await journey.stack.context.db.selectFrom('petitions').select(['id', 'status']).where('title', 'like', 'Bulk petition%').execute();
    expect(statuses).toHaveLength(50);
    expect(statuses.every((p) => p.status === 'closed')).toBe(true);
    const untouched = await journey.stack.context.db.selectFrom('petitions').select('status').where('title', '=', 'Not part of the batch').executeTakeFirstOrThrow();
    expect(untouched.status).toBe('open');
    expect(await auditCount(journey.stack, { action: 'petition.set_status' })).toBe(50);
    expect(errors).toEqual([]);
  }, 150_000);
});
