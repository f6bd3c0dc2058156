/**
 * Journey: the console's header toolbar sits on one row from 1024 px up, in its widest states
 * (the longest office, an outbox with counts, offline with the last contact), and nothing in it is
 * cut off unreadably: a long name is shortened with an ellipsis and shown whole on hover and to
 * screen readers. axe-core checks each state.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import type { SwitchableForwarder } from '../support/switchable-forwarder.ts';
import { seedPetition } from '../support/fixtures.ts';
import { expectAccessible, openPage } from '../support/chromium.ts';
import { signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';

let instance: ConsoleInstance;
let forwarder: SwitchableForwarder;
let petition: { id: number };

const journey = consoleJourney(async ({ stack, openConsole, forwarder: forwarderToBackend }) => {
  petition = await seedPetition(stack.context, { title: 'Header petition', signatures: 14, status: 'awaiting_government_response' });
  forwarder = await forwarderToBackend();
  instance = await openConsole({ apiBaseUrl: forwarder.url });
});

/** The header's items (title, connection, each toolbar control) and whether they share one row. */
async function headerRows(page: Page): Promise<{ rows: number; height: number; overflowing: string[] }> {
  return page.evaluate(() => {
    const header = document.querySelector('.console-top')!;
    const items = [
      header.querySelector('.console-top__title'),
      header.querySelector('.console-connection'),
      ...header.querySelectorAll('.console-top__actions > *'),
    ].filter((el): el is HTMLElement => el instanceof HTMLElement && el.offsetParent !== null);
    const tops = [...new Set(items.map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2)))];
    // Items on one row have vertical centres within a few pixels of each other.
    const rows = tops.sort((a, b) => a - b).reduce<number[]>((found, centre) => (found.length && centre - found.at(-1)! < 12 ? found : [...found, centre]), []).length;
    const overflowing = items.filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5).map((el) => el.className);
    return { rows, height: header.getBoundingClientRect().height, overflowing };
  });
}

describe('the console header', () => {
  it('stays on one row at 1024 and 1280 px, online and offline, with the longest office', async () => {
    const { page, errors } = await openPage(journey.browser, { width: 1280, height: 800 });
    await page.goto(instance.openAddress());
    await signInFromConsole(journey.browser, page, instance, 'Leader of the House of Commons');
    await page.getByRole('heading', { level: 1, name: 'Awaiting government response' }).waitFor();

    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      const layout = await headerRows(page);
      expect(layout, `online at ${width} px`).toMatchObject({ rows: 1, overflowing: [] });
    }
    await expectAccessible(page, 'header online at 1024 px');

    // Widest: offline with its last contact, and an action queued.
    await forwarder.down();
    await page.keyboard.press('r');
    await page.getByRole('textbox', { name: 'Government response' }).fill('Written while the header is at its widest.');
    await page.getByRole('combobox', { name: 'Your government role' }).selectOption('Leader of the House of Commons');
    await page.getByRole('button', { name: 'Submit Response' }).click();
    await page.getByText(`Queued: Government response to petition #${petition.id}`).waitFor();
    const connection = page.getByRole('banner').locator('.console-connection');
    await expect.poll(() => connection.innerText(), { timeout: 15_000 }).toMatch(/Offline[\s·]*last contact \d/);
    for (const width of [1024, 1280, 1600]) {
      await page.setViewportSize({ width, height: 800 });
      const layout = await headerRows(page);
      expect(layout, `offline at ${width} px`).toMatchObject({ rows: 1, overflowing: [] });
    }
    await page.setViewportSize({ width: 1024, height: 800 });
    // The signed-in member stays findable in full, even if shortened on screen.
    const user = page.getByRole('banner').locator('.console-top__user');
    expect(await user.getAttribute('title')).toBe(await user.evaluate((el) => el.textContent));
    await expectAccessible(page, 'header offline at 1024 px');

    // Below 1024 px it may wrap, but nothing leaves the screen.
    await page.setViewportSize({ width: 800, height: 800 });
    expect((await headerRows(page)).overflowing).toEqual([]);
    await forwarder.up();
    expect(errors).toEqual([]);
  }, 120_000);
});
