/**
 * Journey: the backend is unreachable; the Leader of the House records a debate and a response.
 * Both are queued, shown in the outbox, and survive closing and reopening the console; when the
 * backend is reachable again both apply exactly once (one audit row each).
 */
import { describe, expect, it } from 'vitest';
import { auditCount, seedPetition } from '../support/fixtures.ts';
import type { SwitchableForwarder } from '../support/switchable-forwarder.ts';
import { consoleSetup, openConsole, type ConsoleSetup } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { expectAccessible, expectOnPage, openPage } from '../support/chromium.ts';

let setup: ConsoleSetup;
let forwarder: SwitchableForwarder;
let debated: { id: number; title: string };
let answered: { id: number; title: string };

const journey = consoleJourney(async ({ stack, redirects, forwarder: forwarderToBackend }) => {
  debated = await seedPetition(stack.context, { title: 'Debate the school holidays', signatures: 22, status: 'awaiting_debate_in_parliament' });
  answered = await seedPetition(stack.context, { title: 'Answer about bus fares', signatures: 12, status: 'awaiting_government_response' });
  forwarder = await forwarderToBackend();
  setup = await consoleSetup(forwarder.url, redirects[0]!);
});

describe('offline, the Leader of the House keeps working', () => {
  it('queues a debate and a response offline, keeps them across a restart, and applies each once', async () => {
    let instance = await openConsole(setup);
    let tab = await journey.signedInPage(instance, 'Leader of the House of Commons');
    await expectOnPage(tab.page.getByRole('heading', { level: 1, name: 'Awaiting government response' })).toBeVisible();
    const nav = tab.page.getByRole('navigation', { name: 'Console' });
    await expect.poll(() => nav.innerText()).toContain('Awaiting debate');

    await forwarder.down();

    // The debate, from the debate queue.
    await tab.page.keyboard.press('2');
    await expectOnPage(tab.page.getByRole('heading', { level: 1, name: 'Awaiting debate' })).toBeVisible();
    await tab.page.getByRole('button', { name: new RegExp(debated.title) }).click();
    await expectOnPage(tab.page.getByRole('heading', { level: 2, name: 'Add Parliament Debate' })).toBeVisible();
    await tab.page.getByLabel('Debate date').fill('2026-12-10');
    await tab.page.getByRole('button', { name: 'Schedule Debate' }).click();
    await expectOnPage(tab.page.getByText(`Queued: Debate information for petition #${debated.id}`)).toBeVisible();

    // The response, from the response queue.
    await tab.page.keyboard.press('1');
    await tab.page.getByRole('button', { name: new RegExp(answered.title) }).click();
    await tab.page.getByRole('textbox', { name: 'Government response' }).fill('Fares will be frozen for a year.');
    await tab.page.getByRole('combobox', { name: 'Your government role' }).selectOption('Leader of the House of Commons');
    await tab.page.getByRole('button', { name: 'Submit Response' }).click();
    await expectOnPage(tab.page.getByText(`Queued: Government response to petition #${answered.id}`)).toBeVisible();

    const connection = tab.page.getByRole('banner').getByRole('status');
    await expect.poll(() => connection.innerText(), { timeout: 15_000 }).toContain('Offline');
    await tab.page.keyboard.press('o');
    const outbox = tab.page.getByRole('dialog', { name: 'Outbox' });
    await expectOnPage(outbox.getByRole('article', { name: `Debate information for petition #${debated.id}` })).toBeVisible();
    await expectOnPage(outbox.getByRole('article', { name: `Government response to petition #${answered.id}` })).toBeVisible();
    await expect.poll(() => tab.page.getByRole('button', { name: /^Outbox/ }).innerText()).toContain('2 queued');
    await expectAccessible(tab.page, 'outbox while offline');
    await tab.page.keyboard.press('Escape');
    // Signing out with actions not sent asks first; cancelling keeps everything as it was.
    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    const warning = tab.page.getByRole('alertdialog', { name: 'Sign out with actions not sent' });
    await expectOnPage(warning.getByText('2 actions have not reached the server yet.')).toBeVisible();
    await expectAccessible(tab.page, 'sign-out warning');
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await tab.context.close();
    await instance.close();

    // Closed and opened again, still offline: same session, same outbox, data from the cache.
    instance = await openConsole(setup);
    tab = await openPage(journey.browser);
    await tab.page.goto(instance.openAddress());
    await expectOnPage(tab.page.getByRole('heading', { level: 1, name: 'Awaiting government response' })).toBeVisible();
    await expect.poll(() => tab.page.getByTestId('data-age').innerText(), { timeout: 15_000 }).toMatch(/as of \d\d:\d\d, offline/);
    await expect.poll(() => tab.page.getByRole('button', { name: /^Outbox/ }).innerText()).toContain('2 queued');
    await expectAccessible(tab.page, 'queue from the offline cache');
    await tab.page.keyboard.press('o');
    await expectOnPage(tab.page.getByRole('dialog', { name: 'Outbox' }).getByRole('article', { name: `Government response to petition #${answered.id}` })).toBeVisible();
    await tab.page.keyboard.press('Escape');

    await forwarder.up();
    await tab.page.keyboard.press('s');
    await expect.poll(() => tab.page.getByRole('button', { name: /^Outbox/ }).innerText(), { timeout: 20_000 }).toContain('0 queued · 0 sending · 0 need attention');
    await expect.poll(() => tab.page.getByRole('banner').getByRole('status').innerText()).toContain('Online');

    expect(await auditCount(journey.stack, { action: 'debate.add', targetId: debated.id })).toBe(1);
    expect(await auditCount(journey.stack, { action: 'government_response.add', targetId: answered.id })).toBe(1);
    const debate = (await (await fetch(`${journey.stack.baseUrl}/api/petitions/${debated.id}`)).json()) as { debateInfo: { status: string; date: string } };
    expect(debate.debateInfo).toMatchObject({ status: 'scheduled', date: '2026-12-10' });
    const response = (await (await fetch(`${journey.stack.baseUrl}/api/petitions/${answered.id}`)).json()) as { governmentResponse: string };
    expect(response.governmentResponse).toBe('Fares will be frozen for a year.');
    expect(tab.errors).toEqual([]);
    await tab.context.close();
    await instance.close();
  }, 150_000);
});
