/**
 * Journey (docs/moderation.md#in-the-staff-console): moderation through the outbox. Offline, the
 * Leader of the House hides a petition from the cached queue; it applies once when the backend is
 * back. Two consoles decide about the same petition: the second gets the conflict card and decides
 * again on the server's version. Bulk: several cases marked with Space are kept, then hidden, in one
 * step each, with a result per petition (one of them changed meanwhile: a conflict). axe-core checks
 * every state.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { auditCount, seedPetition } from '../support/fixtures.ts';
import type { SwitchableForwarder } from '../support/switchable-forwarder.ts';
import { expectAccessible, expectOnPage, openPage } from '../support/chromium.ts';
import { consoleSetup, openConsole, signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { inPublicList, publicRead, reportAsMembers } from './moderation-support.ts';

let forwarder: SwitchableForwarder;
const consoles: ConsoleInstance[] = [];

const journey = consoleJourney(
  async ({ stack, openConsole: open, forwarder: forwarderToBackend }) => {
    forwarder = await forwarderToBackend();
    consoles.push(await open({ redirect: 0 }), await open({ redirect: 1 }));
    void stack;
  },
  { consoles: 3 },
);

const outboxBadge = (page: Page) => page.getByRole('button', { name: /^Outbox/ }).innerText();

async function reportedPetition(title: string, reports = 1): Promise<{ id: number; title: string }> {
  const petition = await seedPetition(journey.stack.context, { title, signatures: 3 });
  await reportAsMembers(
    journey.stack,
    petition.id,
    Array.from({ length: reports }, () => ({ reason: 'spam' as const })),
  );
  return petition;
}

async function openModeration(page: Page): Promise<void> {
  await page.keyboard.press('3');
  await expectOnPage(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
}

describe('moderation through the outbox', () => {
  it('hides a petition offline from the cached queue and applies it once when back online', async () => {
    const { stack } = journey;
    const petition = await reportedPetition('Sell advertising space on the petitions page');
    const instance = await openConsole(await consoleSetup(forwarder.url, journey.redirects[2]!));
    let backendUp = true;
    try {
      const { page, errors } = await journey.signedInPage(instance, 'Leader of the House of Commons');
      await openModeration(page);
      await expectOnPage(page.getByRole('button', { name: new RegExp(petition.title) })).toBeVisible();
      // The case is read once online, so it is in the cache.
      await page.getByRole('button', { name: new RegExp(petition.title) }).click();
      await expectOnPage(page.getByRole('heading', { level: 1, name: petition.title })).toBeVisible();
      await expect.poll(() => page.getByTestId('data-age').innerText()).toMatch(/as of \d\d:\d\d$/);
      await page.keyboard.press('Escape');

      await forwarder.down();
      backendUp = false;
      // Reading the case again fails: the console answers from its cache and knows it is offline.
      await page.getByRole('button', { name: new RegExp(petition.title) }).click();
      await expect.poll(() => page.getByTestId('data-age').innerText(), { timeout: 15_000 }).toMatch(/as of \d\d:\d\d, offline/);
      await page.keyboard.press('h');
      await page.keyboard.type('Advertising, while a moderator looks at it.');
      await page.keyboard.press('Enter');
      await expectOnPage(page.getByText(`Queued: Hide petition #${petition.id}`)).toBeVisible();
      await expect.poll(() => page.getByRole('banner').getByRole('status').innerText(), { timeout: 15_000 }).toContain('Offline');
      await expect.poll(() => outboxBadge(page)).toContain('1 queued');

      // The queue, from the cache, shows the decision on its way; the server has not seen it.
      await page.keyboard.press('Escape');
      const row = page.getByRole('button', { name: new RegExp(petition.title) });
      await expect.poll(() => row.innerText()).toContain('Queued offline');
      await expect.poll(() => page.getByTestId('data-age').innerText()).toMatch(/offline/);
      await expectAccessible(page, 'moderation queue offline with a queued decision');
      // The cached case shows it hidden already (the queued decision laid over the cache).
      await row.click();
      await expect.poll(() => page.getByTestId('case-state').innerText()).toContain('Hidden by a moderator: “Advertising, while a moderator looks at it.”');
      expect(await inPublicList(stack, petition)).toBe(true);
      expect(await auditCount(stack, { action: 'moderation.hide', targetId: petition.id })).toBe(0);

      await forwarder.up();
      backendUp = true;
      await page.keyboard.press('s');
      await expect.poll(() => outboxBadge(page), { timeout: 20_000 }).toContain('0 queued · 0 sending · 0 need attention');
      expect((await publicRead(stack, `/api/petitions/${petition.id}`)).status).toBe(404);
      expect(await auditCount(stack, { action: 'moderation.hide', targetId: petition.id })).toBe(1);
      // Sync again: still once.
      await page.keyboard.press('s');
      await expect.poll(() => page.getByRole('banner').getByRole('status').innerText()).toContain('Online');
      expect(await auditCount(stack, { action: 'moderation.hide', targetId: petition.id })).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      if (!backendUp) await forwarder.up();
      await instance.close();
    }
  }, 150_000);

  it('shows the second of two consoles the conflict card, and decides again only when asked', async () => {
    const { stack } = journey;
    const petition = await reportedPetition('Close the lake to swimmers in winter', 2);
    const [a, b] = consoles as [ConsoleInstance, ConsoleInstance];
    const leader = await journey.signedInPage(a, 'Leader of the House of Commons');
    const premier = await journey.signedInPage(b, 'Prime Minister');
    for (const { page } of [leader, premier]) {
      await openModeration(page);
      await page.getByRole('button', { name: new RegExp(petition.title) }).click();
      await expectOnPage(page.getByRole('heading', { level: 1, name: petition.title })).toBeVisible();
    }

    // The Leader keeps it (the reports are settled) first.
    await leader.page.keyboard.press('k');
    await leader.page.keyboard.press('Enter');
    // The badge reads "0 queued" before the decision is queued too: wait for the server's record.
    await expect.poll(() => auditCount(stack, { action: 'moderation.keep', targetId: petition.id }), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => outboxBadge(leader.page), { timeout: 15_000 }).toContain('0 queued · 0 sending · 0 need attention');

    // The Prime Minister, on the version they read, hides it: 412, a conflict.
    await premier.page.keyboard.press('h');
    await premier.page.keyboard.type('Swimming in winter is not for this site.');
    await premier.page.keyboard.press('Enter');
    await expect.poll(() => outboxBadge(premier.page), { timeout: 15_000 }).toContain('1 need attention');
    await premier.page.keyboard.press('Escape');
    await premier.page.getByRole('button', { name: new RegExp(petition.title) }).click();
    const card = premier.page.getByRole('group', { name: `Conflict: Hide petition #${petition.id}` });
    await expectOnPage(card).toBeVisible();
    expect(await card.innerText()).toContain(`Another moderator decided about petition #${petition.id} before your decision arrived`);
    expect(await card.getByRole('region', { name: 'On the server now' }).innerText()).toContain('Visible on the site');
    expect(await card.getByRole('region', { name: 'Your draft' }).innerText()).toContain('Swimming in winter is not for this site.');
    await expectAccessible(premier.page, 'moderation conflict card');
    // Nothing was written over the Leader's decision.
    expect(await auditCount(stack, { action: 'moderation.hide', targetId: petition.id })).toBe(0);
    expect((await publicRead(stack, `/api/petitions/${petition.id}`)).status).toBe(200);

    await card.getByRole('button', { name: 'Submit mine as the new version' }).click();
    await expect.poll(() => outboxBadge(premier.page), { timeout: 15_000 }).toContain('0 queued · 0 sending · 0 need attention');
    expect((await publicRead(stack, `/api/petitions/${petition.id}`)).status).toBe(404);
    expect(await auditCount(stack, { action: 'moderation.hide', targetId: petition.id })).toBe(1);
    expect(leader.errors).toEqual([]);
    expect(premier.errors).toEqual([]);
  }, 150_000);

  it('keeps and hides several cases in one step each, with a result per petition', async () => {
    const { stack } = journey;
    const cases: { id: number; title: string }[] = [];
    for (const title of ['Paint the town hall pink', 'A statue of the group owner', 'Rename Tuesday to Funday', 'Free sweets in every lesson']) {
      cases.push(await reportedPetition(title));
    }
    const leader = await openPage(journey.browser);
    await leader.page.goto(consoles[0]!.openAddress());
    const { page } = leader;
    await expectOnPage(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
    await openModeration(page);
    for (const c of cases) await expectOnPage(page.getByRole('button', { name: new RegExp(c.title) })).toBeVisible();

    // Mark three with Space (the row does not open).
    const markWithSpace = async (title: string) => {
      await page.getByRole('button', { name: new RegExp(title) }).focus();
      await page.keyboard.press('Space');
    };
    await markWithSpace(cases[0]!.title);
    await markWithSpace(cases[1]!.title);
    await markWithSpace(cases[2]!.title);
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
    await expect.poll(() => page.getByTestId('moderation-marked').innerText()).toBe('3 marked');
    await expectAccessible(page, 'moderation queue with marked cases');

    // Meanwhile someone else hides the second one: its version moves on.
    await stack.context.db.updateTable('petitions').set({ version: 40 }).where('id', '=', cases[1]!.id).execute();

    await page.getByRole('button', { name: 'Keep 3 marked' }).click();
    const results = page.getByRole('region', { name: 'Results: Keep' });
    await expect.poll(() => results.getByTestId('moderation-bulk-counts').innerText(), { timeout: 20_000 }).toBe('2 applied · 1 conflict');
    const resultOf = (title: string) => results.getByRole('row', { name: new RegExp(title) });
    expect(await resultOf(cases[0]!.title).getAttribute('data-result')).toBe('applied');
    expect(await resultOf(cases[1]!.title).getAttribute('data-result')).toBe('conflict');
    expect(await resultOf(cases[1]!.title).innerText()).toContain('(version 40)');
    await expectAccessible(page, 'bulk keep results');
    expect(await auditCount(stack, { action: 'moderation.keep', targetId: cases[0]!.id })).toBe(1);
    expect(await auditCount(stack, { action: 'moderation.keep', targetId: cases[1]!.id })).toBe(0);
    // Kept cases leave the queue once applied.
    await expect.poll(() => page.getByRole('list').filter({ hasText: cases[0]!.title }).count(), { timeout: 15_000 }).toBe(0);

    // The conflict retried on the server's version; then hide the rest in one step.
    await page.getByRole('button', { name: 'Retry 1 failure' }).click();
    await expect.poll(() => results.getByTestId('moderation-bulk-counts').innerText(), { timeout: 20_000 }).toBe('3 applied');
    await expect.poll(() => page.getByRole('button', { name: new RegExp(cases[3]!.title) }).count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: /^Mark all \d+ shown$/ }).click();
    const marked = Number((await page.getByTestId('moderation-marked').innerText()).split(' ')[0]);
    expect(marked).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: `Hide ${marked} marked` }).click();
    await expectOnPage(page.getByText('Please give a reason for hiding this petition')).toBeVisible();
    await page.getByRole('textbox', { name: 'Reason for hiding (the creators read it)' }).fill('Jokes, not petitions.');
    await page.getByRole('button', { name: `Hide ${marked} marked` }).click();
    const hidden = page.getByRole('region', { name: 'Results: Hide' });
    // Every marked case is decided: hidden, or unchanged where it was hidden already; nothing else.
    await expect.poll(() => hidden.getByTestId('moderation-bulk-counts').innerText(), { timeout: 20_000 }).toMatch(/^(\d+ (applied|unchanged)( · )?)+$/);
    expect(await hidden.getByTestId('moderation-bulk-counts').innerText()).toContain('applied');
    expect(await hidden.getByRole('row', { name: new RegExp(cases[3]!.title) }).getAttribute('data-result')).toBe('applied');
    await expectAccessible(page, 'bulk hide results');
    expect((await publicRead(stack, `/api/petitions/${cases[3]!.id}`)).status).toBe(404);
    expect(await auditCount(stack, { action: 'moderation.hide', targetId: cases[3]!.id })).toBe(1);
    expect(leader.errors).toEqual([]);
  }, 150_000);

  it('lets the administrator ban a case’s creator from the card, through the outbox', async () => {
    const { stack } = journey;
    const petition = await seedPetition(stack.context, { title: 'Join my private server for free gems', signatures: 1, creatorId: '4242', creatorName: 'Gem Seller' });
    await reportAsMembers(stack, petition.id, [{ reason: 'spam', details: 'Advertising a server.' }]);
    const admin = await openPage(journey.browser);
    await admin.page.goto(consoles[1]!.openAddress());
    await admin.page.getByRole('button', { name: 'Sign out' }).click();
    await signInFromConsole(journey.browser, admin.page, consoles[1]!, 'System Administrator');
    const { page } = admin;
    await expectOnPage(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
    await openModeration(page);
    await page.getByRole('button', { name: new RegExp(petition.title) }).click();
    await expectOnPage(page.getByRole('heading', { level: 1, name: petition.title })).toBeVisible();
    await page.keyboard.press('b');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('case-ban');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByText('Please give a reason for the ban')).toBeVisible();
    await expectAccessible(page, 'ban reason refused');
    await page.keyboard.type('Advertising through petitions.');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByText('Queued: Ban user 4242')).toBeVisible();
    await expect.poll(async () => (await stack.context.db.selectFrom('bans').select('user_id').execute()).map((b) => b.user_id), { timeout: 15_000 }).toContain('4242');
    // The case says so once read again, and offers no second ban.
    await expectOnPage(page.getByText(/Gem Seller \(user 4242\) · Banned: Advertising through petitions\./)).toBeVisible({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Ban the creator' }).count()).toBe(0);
    expect(admin.errors).toEqual([]);
  }, 120_000);
});
