/**
 * Journey: keys typed before the form is there (README.md#console-screens-and-shortcuts). The petition
 * screen's code is held back as on a slow machine; the Leader of the House presses r on a queue row and
 * types at once a sentence full of shortcut letters (j, k, d, s, o, ?, 1, 2). None acts as a shortcut,
 * everything lands in the response text once the form opens, and the server stores exactly that.
 */
import { describe, expect, it } from 'vitest';
import { seedPetition } from '../support/fixtures.ts';
import { expectOnPage, openPage } from '../support/chromium.ts';
import { signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';

/** How long the petition screen's code is held back: far longer than typing the sentence takes. */
const SCREEN_DELAY_MS = 3_000;
const TYPED = 'jokes do sound odd? 1 2 skip';
/** What the form holds after a Backspace at the end. */
const EXPECTED = TYPED.slice(0, -1);

let instance: ConsoleInstance;
let first: { id: number; title: string };

const journey = consoleJourney(async ({ stack, openConsole }) => {
  first = await seedPetition(stack.context, { title: 'Type-ahead petition one', signatures: 19, status: 'awaiting_government_response' });
  await seedPetition(stack.context, { title: 'Type-ahead petition two', signatures: 18, status: 'awaiting_government_response' });
  instance = await openConsole();
});

describe('keys typed before the response form is there', () => {
  it('go into the form, not to the shortcuts, and are stored exactly', async () => {
    const { page, errors } = await openPage(journey.browser, { width: 1280, height: 900 });
    let heldBack = 0;
    await page.route(/\/assets\/PetitionScreen-[\w-]+\.js$/, async (route) => {
      heldBack += 1;
      await new Promise((resolve) => setTimeout(resolve, SCREEN_DELAY_MS));
      await route.continue();
    });
    await page.goto(instance.openAddress());
    await signInFromConsole(journey.browser, page, instance, 'Leader of the House of Commons');
    await page.getByRole('heading', { level: 1, name: 'Awaiting government response' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(first.title);

    const typedFrom = Date.now();
    await page.keyboard.press('r');
    await page.keyboard.type(TYPED);
    await page.keyboard.press('Backspace');
    // The screen was still on its way while every key went in.
    expect(heldBack).toBe(1);
    expect(Date.now() - typedFrom).toBeLessThan(SCREEN_DELAY_MS);
    // No shortcut acted meanwhile: no panel opened, the queue did not move, no other screen.
    expect(await page.getByRole('dialog').count()).toBe(0);

    const text = page.getByRole('textbox', { name: 'Government response' });
    await expectOnPage(text).toBeVisible();
    await expectOnPage(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
    await expect.poll(() => text.inputValue()).toBe(EXPECTED);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toBe('gov-response-text');

    // Typing on goes to the field as usual, after what was held.
    await page.keyboard.type('!');
    expect(await text.inputValue()).toBe(`${EXPECTED}!`);
    await page.keyboard.press('Control+Enter');
    await page.getByText(`Queued: Government response to petition #${first.id}`).waitFor();
    const stored = async () =>
      ((await (await fetch(`${journey.stack.baseUrl}/api/petitions/${first.id}`)).json()) as { governmentResponse: string | null }).governmentResponse;
    await expect.poll(stored, { timeout: 20_000 }).toBe(`${EXPECTED}!`);
    expect(errors).toEqual([]);
  }, 120_000);
});
