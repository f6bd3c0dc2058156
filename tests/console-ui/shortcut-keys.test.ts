/**
 * Journey: every single-key shortcut that moves focus consumes its key. The Leader of the House
 * (who may respond and record debates) goes through every shortcut of the sheet with real key
 * presses, opens forms with `r`, `d` and Enter from a queue row and from a petition's heading, and
 * types straight away: the texts the server stores are exactly what was typed, with no shortcut
 * letter, newline or digit in front.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { seedPetition } from '../support/fixtures.ts';
import { expectAccessible, openPage } from '../support/chromium.ts';
import { signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';

let instance: ConsoleInstance;
const answers: { id: number; title: string }[] = [];
let debate: { id: number; title: string };

const journey = consoleJourney(async ({ stack, openConsole }) => {
  for (const [title, signatures] of [['Shortcut petition one', 19], ['Shortcut petition two', 18], ['Shortcut petition three', 17]] as const) {
    answers.push(await seedPetition(stack.context, { title, signatures, status: 'awaiting_government_response' }));
  }
  debate = await seedPetition(stack.context, {
    title: 'Shortcut debate petition',
    signatures: 25,
    status: 'awaiting_debate_in_parliament',
    governmentResponse: 'Answered already.',
  });
  instance = await openConsole();
});

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');
const responseText = (page: Page) => page.getByRole('textbox', { name: 'Government response' });

async function storedResponse(id: number): Promise<string | null> {
  const response = await fetch(`${journey.stack.baseUrl}/api/petitions/${id}`);
  return ((await response.json()) as { governmentResponse: string | null }).governmentResponse;
}

describe('shortcut keys never reach the field they open', () => {
  it('types through every shortcut; what the server stores is exactly what was typed', async () => {
    const { page, errors } = await openPage(journey.browser, { width: 1280, height: 900 });
    await page.goto(instance.openAddress());
    await signInFromConsole(journey.browser, page, instance, 'Leader of the House of Commons');
    await page.getByRole('heading', { level: 1, name: 'Awaiting government response' }).waitFor();
    await expect.poll(() => focusedText(page)).toContain(answers[0]!.title);

    // The shortcuts that only move or open something: none types anything anywhere.
    await page.keyboard.press('?');
    await page.getByRole('heading', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('o');
    await page.getByRole('dialog', { name: 'Outbox' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Outbox' }).waitFor({ state: 'hidden' });
    await page.keyboard.press('s');
    await page.keyboard.press('2');
    await page.getByRole('heading', { level: 1, name: 'Awaiting debate' }).waitFor();
    await page.keyboard.press('1');
    await page.getByRole('heading', { level: 1, name: 'Awaiting government response' }).waitFor();
    await expect.poll(() => focusedText(page)).toContain(answers[0]!.title);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('combobox', { name: 'Petition number or title, screen, or action' });
    await palette.waitFor();
    await expect.poll(() => focusedId(page)).toBe('palette-input');
    expect(await palette.inputValue()).toBe('');
    await page.keyboard.press('Escape');

    // j / k move; r on a row opens the form with the cursor in the text, and the r stays out of it.
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await expect.poll(() => focusedText(page)).toContain(answers[0]!.title);
    // Typed at once, as a fast typist would: the form must have the cursor before the next key.
    const first = 'The Government will answer this in full.';
    await page.keyboard.press('r');
    await page.keyboard.type(first);
    expect(await focusedId(page)).toBe('gov-response-text');
    expect(await responseText(page).inputValue()).toBe(first);
    await page.getByRole('combobox', { name: 'Your government role' }).selectOption('Home Secretary');
    await responseText(page).focus();
    // Ctrl+Enter queues and opens the next petition: its form starts empty (no newline carried over).
    await page.keyboard.press('Control+Enter');
    await page.getByRole('heading', { level: 1, name: answers[1]!.title }).waitFor();
    await expect.poll(() => focusedId(page)).toBe('gov-response-text');
    expect(await responseText(page).inputValue()).toBe('');

    // Esc back to the queue, Enter on the row: the form opens empty (no newline from the Enter).
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Awaiting government response' }).waitFor();
    await expect.poll(() => focusedText(page)).toContain(answers[1]!.title);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedId(page)).toBe('gov-response-text');
    expect(await responseText(page).inputValue()).toBe('');
    const second = 'Second answer, typed at once.';
    await page.keyboard.type(second);
    await page.keyboard.press('Control+Enter');

    // From a petition's own page (the palette opens it with its heading focused): r, then type.
    await page.getByRole('heading', { level: 1, name: answers[2]!.title }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await palette.waitFor();
    await page.keyboard.type(`#${answers[2]!.id}`);
    await page.getByRole('option', { name: new RegExp(`#${answers[2]!.id} `) }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: answers[2]!.title }).waitFor();
    await expect.poll(() => focusedId(page)).toBe('petition-title');
    await page.keyboard.press('r');
    await expect.poll(() => focusedId(page)).toBe('gov-response-text');
    expect(await responseText(page).inputValue()).toBe('');
    const third = 'rather: a reply that starts with the letter r.';
    await page.keyboard.type(third);
    await expectAccessible(page, 'response form opened with r');
    await page.keyboard.press('Control+Enter');
    await page.getByText(`Queued: Government response to petition #${answers[2]!.id}`).waitFor();
    // Opened from the palette, not from a queue: the page stays; Esc leaves the field and the page.
    await page.keyboard.press('Escape');

    // d on the debate queue's row: the status select keeps its default (no "d" type-ahead to "Debated").
    await page.keyboard.press('2');
    await page.getByRole('heading', { level: 1, name: 'Awaiting debate' }).waitFor();
    await expect.poll(() => focusedText(page)).toContain(debate.title);
    await page.keyboard.press('d');
    await expect.poll(() => focusedId(page)).toBe('debate-status');
    expect(await page.getByRole('combobox', { name: 'Debate status' }).inputValue()).toBe('scheduled');
    await page.getByLabel('Debate date').fill('2026-11-30');
    await page.getByLabel('Debate date').focus();
    await page.keyboard.press('Control+Enter');
    await page.getByText(`Queued: Debate information for petition #${debate.id}`).waitFor();

    // Everything applied: the stored texts are exactly the typed ones.
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expect.poll(() => nav.innerText(), { timeout: 20_000 }).toMatch(/Awaiting government response\s*0/);
    expect(await storedResponse(answers[0]!.id)).toBe(first);
    expect(await storedResponse(answers[1]!.id)).toBe(second);
    expect(await storedResponse(answers[2]!.id)).toBe(third);
    const storedDebate = async () =>
      ((await (await fetch(`${journey.stack.baseUrl}/api/petitions/${debate.id}`)).json()) as { debateInfo: { status: string; date: string } | null }).debateInfo;
    await expect.poll(storedDebate, { timeout: 20_000 }).toMatchObject({ status: 'scheduled', date: '2026-11-30' });
    expect(errors).toEqual([]);
  }, 180_000);
});
