/**
 * Journey: a Cabinet Minister answers a petition while the backend is away. It stays away for 60
 * seconds; when it starts again the console notices on its own and the response is applied within
 * 5 seconds, stored exactly as typed, and audited with the time it was made as well as the time it
 * was applied. The administrator then reads it in the console's audit log screen (made-at and
 * applied-at, filters, the CSV). Office rules hold in the console build too. axe on every state.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seedPetition } from '../support/fixtures.ts';
import type { SwitchableForwarder } from '../support/switchable-forwarder.ts';
import { expectAccessible, expectOnPage, openPage } from '../support/chromium.ts';
import { signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';

let minister: ConsoleInstance;
let administrator: ConsoleInstance;
let forwarder: SwitchableForwarder;
let petition: { id: number; title: string };
const TYPED = 'rather than wait: the Government will fund the ferry from June, as asked.';
let queuedBetween: [number, number];

const journey = consoleJourney(
  async ({ stack, openConsole, forwarder: forwarderToBackend }) => {
    petition = await seedPetition(stack.context, { title: 'Keep the island ferry running', signatures: 16, status: 'awaiting_government_response' });
    forwarder = await forwarderToBackend();
    minister = await openConsole({ redirect: 0, apiBaseUrl: forwarder.url });
    administrator = await openConsole({ redirect: 1 });
  },
  { consoles: 2 },
);

const OUTAGE_MS = 60_000;

describe('a response written while the backend is away', () => {
  it('is applied within 5 s of the backend answering after a 60 s outage, as typed, with when it was made', async () => {
    const { page, errors } = await openPage(journey.browser, { width: 1280, height: 900 });
    await page.goto(minister.openAddress());
    await signInFromConsole(journey.browser, page, minister, 'Cabinet Minister');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Awaiting government response' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(petition.title);

    await forwarder.down();
    const outageStart = Date.now();
    await page.keyboard.press('r');
    await page.keyboard.type(TYPED);
    // The console offers a Cabinet Minister no office tied to another rank.
    const office = page.getByRole('combobox', { name: 'Your government role' });
    const offered = await office.locator('option').allTextContents();
    expect(offered).not.toContain('Prime Minister');
    expect(offered).not.toContain('Leader of the House of Commons');
    await office.selectOption('Transport Secretary');
    await page.getByRole('textbox', { name: 'Government response' }).focus();
    const before = Date.now();
    await page.keyboard.press('Control+Enter');
    await expectOnPage(page.getByText(`Queued: Government response to petition #${petition.id}`)).toBeVisible();
    queuedBetween = [before, Date.now()];

    // Offline: the connection says so, and the outbox says the row waits for the server, not for a time.
    const connection = page.getByRole('banner').locator('.console-connection');
    await expect.poll(() => connection.innerText(), { timeout: 15_000 }).toMatch(/Offline/);
    await page.keyboard.press('o');
    const outbox = page.getByRole('dialog', { name: 'Outbox' });
    const row = outbox.getByRole('article', { name: `Government response to petition #${petition.id}` });
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('Waiting for the server (sent as soon as it answers)');
    await expectAccessible(page, 'outbox waiting for the server');
    await page.keyboard.press('Escape');

    // The backend stays away for a minute, then starts again; nobody touches the console.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - outageStart))));
    const stored = () =>
      journey.stack.context.db.selectFrom('petitions').select(['government_response', 'government_response_meta']).where('id', '=', petition.id).executeTakeFirstOrThrow();
    expect((await stored()).government_response).toBeNull();
    await forwarder.up();
    const backAt = Date.now();
    await expect.poll(async () => (await stored()).government_response, { timeout: 15_000, interval: 50 }).toBe(TYPED);
    const appliedAfter = Date.now() - backAt;
    expect(appliedAfter, `applied ${appliedAfter} ms after the backend answered`).toBeLessThan(5_000);
    expect(JSON.parse((await stored()).government_response_meta!)).toMatchObject({ addedBy: 'Morgan Minister', addedByRole: 'Transport Secretary' });

    // The audit entry: made while offline, applied after the outage.
    const audit = await journey.stack.context.db
      .selectFrom('audit_log')
      .select(['made_at', 'at', 'actor_id'])
      .where('action', '=', 'government_response.add')
      .where('target_id', '=', String(petition.id))
      .executeTakeFirstOrThrow();
    const madeAt = Date.parse(audit.made_at!);
    expect(madeAt).toBeGreaterThanOrEqual(queuedBetween[0] - 1000);
    expect(madeAt).toBeLessThanOrEqual(queuedBetween[1] + 1000);
    expect(Date.parse(audit.at)).toBeGreaterThanOrEqual(backAt - 1000);
    expect(Date.parse(audit.at) - madeAt).toBeGreaterThan(OUTAGE_MS - 5_000);

    // The console says it is back, and the row applied.
    await expect.poll(() => connection.innerText(), { timeout: 10_000 }).toMatch(/Online/);
    await page.keyboard.press('o');
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('Applied');
    await expectAccessible(page, 'outbox after the backend came back');
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  }, 180_000);

  it('shows the administrator, in the console’s audit log, who made it, when it was made and when applied', async () => {
    const { page, errors } = await openPage(journey.browser, { width: 1280, height: 900 });
    await page.goto(administrator.openAddress());
    await signInFromConsole(journey.browser, page, administrator, 'System Administrator');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('button', { name: 'Audit log' }).click();
    const section = page.getByRole('region', { name: 'Audit log' });
    const entries = section.getByRole('list', { name: 'Audit log entries' }).getByRole('listitem');
    await expectOnPage(entries.first()).toContainText(`Government response added · Petition #${petition.id}`);
    await expectOnPage(entries.first()).toContainText('Morgan Minister (Cabinet Minister)');
    await expectOnPage(entries.first()).toContainText(/Applied .* · made .* \(queued offline\)/);
    await expectAccessible(page, 'console audit log');

    await section.getByLabel('Who').selectOption({ label: 'Morgan Minister (Cabinet Minister)' });
    await section.getByRole('button', { name: 'Apply filters' }).click();
    await expectOnPage(section.locator('.audit-log__count')).toHaveText('Showing 1 entry matching the filters, newest first.');
    await expectAccessible(page, 'console audit log filtered');

    // The CSV comes through the console's main process (the page has no session of its own).
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: /Download CSV/ }).click()]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const lines = fs.readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,2006,Morgan Minister,Cabinet Minister,government_response.add,Government response added,petition,${petition.id},`);
    expect(errors).toEqual([]);
  }, 120_000);
});
