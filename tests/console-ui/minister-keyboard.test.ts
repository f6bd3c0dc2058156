/**
 * Journey: a Cabinet Minister answers three petitions from the queue with the keyboard only; each
 * is queued, then applied, and the public API shows the responses with their meta. Rank 6 sees no
 * debate queue. axe-core checks every screen and state visited.
 */
import { describe, expect, it } from 'vitest';
import { seedPetition } from '../support/fixtures.ts';
import { signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { expectAccessible, expectOnPage, openPage } from '../support/chromium.ts';

let instance: ConsoleInstance;
const petitions: { id: number; title: string }[] = [];

const journey = consoleJourney(async ({ stack, openConsole }) => {
  for (const [title, signatures] of [['Longer opening hours for the library', 18], ['More buses on Sundays', 15], ['A new park by the river', 12]] as const) {
    petitions.push(await seedPetition(stack.context, { title, signatures, status: 'awaiting_government_response' }));
  }
  // Not in the queue: already answered, or too few signatures.
  await seedPetition(stack.context, { title: 'Already answered', signatures: 14, status: 'government_response', governmentResponse: 'Done.' });
  await seedPetition(stack.context, { title: 'Too few signatures yet', signatures: 3 });
  instance = await openConsole();
});

describe('a minister works through the response queue with the keyboard', () => {
  it('answers three petitions without a mouse; each is queued, then applied, then public', async () => {
    const { page, errors } = await openPage(journey.browser);
    await page.goto(instance.openAddress());
    await expectAccessible(page, 'console sign-in');
    await signInFromConsole(journey.browser, page, instance, 'Cabinet Minister');

    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Awaiting government response' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expect.poll(() => nav.innerText()).toContain('3');
    expect(await nav.innerText()).not.toContain('Awaiting debate');
    // Highest signatures first; focus lands on the first petition.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(petitions[0]!.title);
    await expectAccessible(page, 'response queue');

    await page.keyboard.press('?');
    await expectOnPage(page.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expectAccessible(page, 'shortcut sheet');
    await page.keyboard.press('Escape');
    await expectOnPage(page.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeHidden();

    // j moves down, k back up.
    await page.keyboard.press('j');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(petitions[1]!.title);
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');

    await expectOnPage(page.getByRole('heading', { level: 2, name: 'Add Government Response' })).toBeVisible();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('gov-response-text');
    // Before submitting, the form says how many signers the response will reach (the server's count).
    await page.getByText('This will notify 18 signers', { exact: true }).waitFor();
    // Submitting empty shows the spec's messages and keeps the user here.
    await page.keyboard.press('Control+Enter');
    await expectOnPage(page.getByRole('link', { name: 'Please enter a government response' })).toBeVisible();
    await expectAccessible(page, 'response form with errors');

    // The summary has focus; its link leads to the field.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('gov-response-text');
    await page.keyboard.type('The Government will extend the opening hours from January.');
    await page.keyboard.press('Tab');
    // A Cabinet Minister is offered neither Prime Minister nor Leader of the House: Home Secretary is the fourth.
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('combobox', { name: 'Your government role' }).inputValue()).toBe('Home Secretary');
    await page.keyboard.press('Control+Enter');

    // The next petition opens with the office remembered and the cursor in the text.
    for (const [index, text] of [[1, 'Sunday buses will run every hour from spring.'], [2, 'The park is in next year\'s plans.']] as const) {
      await expectOnPage(page.getByRole('heading', { level: 1, name: petitions[index]!.title })).toBeVisible();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('gov-response-text');
      expect(await page.getByRole('combobox', { name: 'Your government role' }).inputValue()).toBe('Home Secretary');
      await page.keyboard.type(text);
      await page.keyboard.press('Control+Enter');
    }
    await expectOnPage(page.getByText('That was the last petition waiting in this queue.')).toBeVisible();
    await expectOnPage(page.getByText(/Queued: Government response to petition #/).first()).toBeVisible();

    // Once applied, they leave the queue.
    await expect.poll(() => nav.innerText(), { timeout: 15_000 }).toContain('0');
    await expectOnPage(page.getByText('Nothing is waiting here.')).toBeVisible();

    await page.keyboard.press('o');
    const outbox = page.getByRole('dialog', { name: 'Outbox' });
    await expectOnPage(outbox).toBeVisible();
    for (const p of petitions) {
      const row = outbox.getByRole('article', { name: `Government response to petition #${p.id}` });
      await expect.poll(() => row.innerText()).toContain('Applied');
    }
    await expectAccessible(page, 'outbox panel');
    await page.keyboard.press('Escape');

    // The palette finds a petition that is in no queue any more, by a word of its title (server search).
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Sundays');
    await expectOnPage(page.getByRole('option', { name: new RegExp(`#${petitions[1]!.id} ${petitions[1]!.title}`) })).toBeVisible();
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByRole('heading', { level: 1, name: petitions[1]!.title })).toBeVisible();
    await expectOnPage(page.getByText('Sunday buses will run every hour from spring.')).toBeVisible();
    await expectAccessible(page, 'petition page with its response');

    for (const p of petitions) {
      const response = await fetch(`${journey.stack.baseUrl}/api/petitions/${p.id}`);
      const body = (await response.json()) as { governmentResponse: string; status: string; governmentResponseMeta: { addedBy: string; addedByRole: string; addedAt: string } };
      expect(body.status).toBe('government_response');
      expect(body.governmentResponse.length).toBeGreaterThan(10);
      expect(body.governmentResponseMeta).toMatchObject({ addedByRole: 'Home Secretary' });
      expect(body.governmentResponseMeta.addedBy).toBeTruthy();
      expect(Number.isNaN(Date.parse(body.governmentResponseMeta.addedAt))).toBe(false);
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
