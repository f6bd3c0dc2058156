/**
 * Journey: two ministers work the response queue at once, each in a console of their own
 * (docs/console-team.md). The queue shows how long each petition has waited since its threshold,
 * with due-soon and overdue marks and the overdue count in the navigation; the second console sees
 * the first minister's claim within 2 s; Ctrl+Enter's "next" skips the claimed petition; a new
 * petition in the queue becomes a desktop notification only for the console whose window is not
 * focused; a second writer is warned, and if both send anyway the conflict card appears as before;
 * offline, the console says it cannot see claims. axe-core checks every new state.
 */
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src-shared/rules/queue-ageing.ts';
import { PRESENCE_TEXTS, SKIPPED_CLAIM_TEXTS } from '../../src-shared/rules/presence.ts';
import { seedPetition } from '../support/fixtures.ts';
import type { SwitchableForwarder } from '../support/switchable-forwarder.ts';
import type { ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { QUEUE_INTERACTIVE_MARK } from '../../src-renderer/console/lazyScreens.ts';
import { expectAccessible, expectOnPage } from '../support/chromium.ts';

let a: ConsoleInstance;
let b: ConsoleInstance;
let forwarder: SwitchableForwarder;
const petitions: { id: number; title: string }[] = [];

const journey = consoleJourney(
  async ({ stack, openConsole, forwarder: forwarderToBackend }) => {
    const ago = (days: number) => new Date(Date.now() - days * DAY_MS);
    const seeds = [
      ['Longer opening hours for the library', 18, 15],
      ['More buses on Sundays', 15, 1],
      ['A new park by the river', 12, 12],
    ] as const;
    for (const [title, signatures, waited] of seeds) {
      petitions.push(await seedPetition(stack.context, { title, signatures, status: 'awaiting_government_response', responseThresholdReachedAt: ago(waited) }));
    }
    a = await openConsole({ redirect: 0 });
    // The second minister reaches the backend through a forwarder, cut off at the end.
    forwarder = await forwarderToBackend();
    b = await openConsole({ redirect: 1, apiBaseUrl: forwarder.url });
  },
  { consoles: 2 },
);

const row = (page: Page, title: string) => page.getByRole('button', { name: new RegExp(title) });

describe('two ministers in two consoles', () => {
  it('see each other live, skip claimed petitions, are warned, and still get the conflict card', async () => {
    const [library, buses, park] = petitions as [(typeof petitions)[0], (typeof petitions)[0], (typeof petitions)[0]];
    const first = await journey.signedInPage(a, 'Cabinet Minister');
    const second = await journey.signedInPage(b, 'Prime Minister');

    // Ageing: marks in words on each row, the overdue count in the navigation.
    await expectOnPage(row(first.page, library.title)).toContainText('Overdue');
    await expectOnPage(row(first.page, library.title)).toContainText('waiting 15 days, 1 day overdue');
    await expectOnPage(row(first.page, park.title)).toContainText('Due soon');
    await expectOnPage(row(first.page, park.title)).toContainText('waiting 12 days, due in 2 days');
    await expectOnPage(row(first.page, buses.title)).toContainText('waiting 1 day');
    expect(await row(first.page, buses.title).innerText()).not.toMatch(/Due soon|Overdue/);
    const count = first.page.getByRole('navigation', { name: 'Console' }).getByLabel('3 petitions, 1 overdue');
    await expectOnPage(count).toBeVisible();
    expect(await count.innerText()).toContain('1 overdue');
    await first.page.getByRole('combobox', { name: 'Order' }).selectOption('waiting');
    // Longest waiting since the threshold first, whatever the signatures say.
    await expect.poll(() => first.page.locator('.console-row__title').allInnerTexts()).toEqual([library.title, park.title, buses.title]);
    await expectAccessible(first.page, 'queue with ageing marks');

    // Colleagues' notes come with the workspace's background chunk, asked for only once the queue is interactive
    // (its mark); the frame around the queue is asked for before (docs/operations.md#javascript-weight).
    const asked = await (
      await first.page.waitForFunction((mark) => {
        const interactive = performance.getEntriesByName(mark)[0]?.startTime;
        const scripts = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const frame = scripts.find((e) => e.name.includes('/assets/workspaceFrame-'));
        const background = scripts.find((e) => e.name.includes('/assets/workspaceBackground-'));
        return interactive !== undefined && frame && background ? { interactive, frame: frame.startTime, background: background.startTime } : null;
      }, QUEUE_INTERACTIVE_MARK)
    ).jsonValue();
    expect(asked!.frame).toBeLessThan(asked!.interactive);
    expect(asked!.background).toBeGreaterThanOrEqual(asked!.interactive);

    // The first minister opens the response form on the buses petition: the second sees it within 2 s.
    await expectOnPage(row(second.page, buses.title)).toBeVisible();
    await row(first.page, buses.title).click();
    await expectOnPage(first.page.getByRole('heading', { level: 2, name: 'Add Government Response' })).toBeVisible();
    const opened = Date.now();
    await expectOnPage(row(second.page, buses.title)).toContainText('Morgan Minister is writing a response', { timeout: 2_000 });
    expect(Date.now() - opened).toBeLessThan(2_000);
    await expectAccessible(second.page, 'queue with a colleague writing');

    // The second answers the library petition with Ctrl+Enter: "next" passes over the claimed buses petition.
    await row(second.page, library.title).click();
    await second.page.getByRole('textbox', { name: 'Government response' }).fill('The library will open on Sundays from May.');
    await second.page.getByRole('combobox', { name: 'Your government role' }).selectOption('Prime Minister');
    await second.page.getByRole('textbox', { name: 'Government response' }).press('Control+Enter');
    await expectOnPage(second.page.getByRole('heading', { level: 1, name: new RegExp(park.title) })).toBeVisible();
    await expectOnPage(second.page.getByText(SKIPPED_CLAIM_TEXTS.skipped)).toBeVisible();

    // A new petition enters the queue: only the console whose window is not focused notifies.
    await first.page.evaluate(() => {
      Document.prototype.hasFocus = () => false;
    });
    const arrived = await seedPetition(journey.stack.context, { title: 'Free swimming for pensioners', signatures: 11, status: 'awaiting_government_response' });
    await journey.stack.context.staffEvents.poke({ queues: true });
    await expect
      .poll(() => a.notifications.find((n) => n.body.includes(`#${arrived.id}`)), { timeout: 15_000 })
      .toEqual({ title: 'New petition awaiting a government response', body: `#${arrived.id} Free swimming for pensioners (11 signatures)` });

    // The second opens the claimed petition anyway: warned, not blocked.
    await second.page.keyboard.press('Escape');
    await row(second.page, buses.title).click();
    const warning = second.page.getByRole('status').filter({ hasText: 'Morgan Minister (Cabinet Minister) is writing a response to this petition' });
    await expectOnPage(warning).toBeVisible();
    expect(await warning.innerText()).toContain('You can still write one');
    await expectOnPage(second.page.getByRole('list', { name: 'Also on this petition' })).toContainText('Morgan Minister is writing a response');
    await expectAccessible(second.page, 'second writer warned');
    // And the first sees the second there too.
    await expectOnPage(first.page.getByRole('list', { name: 'Also on this petition' })).toContainText('Pat Premier is writing a response');

    // Both write anyway: the first applies, the second gets the conflict card as before.
    await first.page.getByRole('textbox', { name: 'Government response' }).fill('Sunday buses will run from June.');
    await first.page.getByRole('combobox', { name: 'Your government role' }).selectOption('Transport Secretary');
    await first.page.getByRole('button', { name: 'Submit Response' }).click();
    await expect.poll(() => first.page.getByRole('button', { name: /^Outbox/ }).innerText(), { timeout: 15_000 }).toContain('0 queued · 0 sending');
    await second.page.getByRole('textbox', { name: 'Government response' }).fill('Sunday buses will run every hour.');
    await second.page.getByRole('combobox', { name: 'Your government role' }).selectOption('Prime Minister');
    await second.page.getByRole('button', { name: 'Submit Response' }).click();
    await expect.poll(() => second.page.getByRole('button', { name: /^Outbox/ }).innerText(), { timeout: 15_000 }).toContain('1 need attention');
    await second.page.getByRole('button', { name: /^Outbox/ }).click();
    const card = second.page.getByRole('group', { name: `Conflict: Government response to petition #${buses.id}` });
    await expectOnPage(card).toBeVisible();
    expect(await card.getByRole('region', { name: 'On the server now' }).innerText()).toContain('Sunday buses will run from June.');
    await second.page.keyboard.press('Escape');

    // Offline: the second console says it cannot see claims.
    await forwarder.down();
    await second.page.keyboard.press('Escape');
    await row(second.page, park.title).click();
    await expectOnPage(second.page.getByTestId('presence-notice')).toHaveText(PRESENCE_TEXTS.offline, { timeout: 20_000 });
    await expectAccessible(second.page, 'offline, claims not visible');
    // The focused console heard of the new petition too, but showed no notification.
    expect(b.notifications.filter((n) => n.body.includes(`#${arrived.id}`))).toEqual([]);
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
  }, 240_000);
});
