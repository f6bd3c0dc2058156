/**
 * Journey (docs/moderation.md#in-the-staff-console): three members report a petition (real API
 * calls as three citizens) and it leaves the public list; the Leader of the House (rank 7) finds it
 * in the console's moderation queue and restores it with the keyboard only, and everything is back
 * as it was. Then hide and reject from the console; a Leader who leaves a case before the console
 * has queued the decision stays where they went; and a Cabinet Minister (rank 6) has no moderation
 * queue. axe-core checks the queue and its states.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import type { PetitionDetail } from '../../src-shared/domain/schemas.ts';
import { MODERATION_TEXTS } from '../../src-shared/domain/moderation-texts.ts';
import { BRIDGE_INVOKE_PATH } from '../../src-shared/console/bridge-protocol.ts';
import { auditCount, seedPetition } from '../support/fixtures.ts';
import { expectAccessible, expectOnPage, openPage } from '../support/chromium.ts';
import { signInFromConsole, type ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { inPublicList, publicRead, reportAsMembers } from './moderation-support.ts';

let instance: ConsoleInstance;
let reported: { id: number; title: string };
let before: PetitionDetail;
let toHide: { id: number; title: string };
let toReject: { id: number; title: string };

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

const journey = consoleJourney(async ({ stack, openConsole }) => {
  reported = await seedPetition(stack.context, { title: 'Rename the quillfeather square', signatures: 7, creatorId: '2001', creatorName: 'Casey Citizen' });
  toHide = await seedPetition(stack.context, { title: 'Ban homework on Fridays', signatures: 4, creatorId: '2001', creatorName: 'Casey Citizen' });
  toReject = await seedPetition(stack.context, { title: 'Buy my new trainers at half price', signatures: 1 });
  instance = await openConsole();
});

describe('the moderation queue in the console', () => {
  it('restores, by keyboard, a petition that three members reported, and everything is back as it was', async () => {
    const { stack } = journey;
    before = (await publicRead<PetitionDetail>(stack, `/api/petitions/${reported.id}`)).body;
    expect(await inPublicList(stack, reported)).toBe(true);

    await reportAsMembers(stack, reported.id, [
      { reason: 'personal_information', details: 'It names a pupil at a real school.' },
      { reason: 'offensive' },
      { reason: 'other', details: 'The square already has a name.' },
    ]);
    // Hidden at the third report: gone from the public list and the public API.
    expect(await inPublicList(stack, reported)).toBe(false);
    expect((await publicRead(stack, `/api/petitions/${reported.id}`)).status).toBe(404);
    // Reported once: still public, but in the queue.
    await reportAsMembers(stack, toHide.id, [{ reason: 'spam' }]);
    await reportAsMembers(stack, toReject.id, [{ reason: 'spam', details: 'Selling shoes.' }]);

    const { page, errors } = await journey.signedInPage(instance, 'Leader of the House of Commons');
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expectOnPage(nav.getByRole('button', { name: /Moderation/ })).toBeVisible();
    await expect.poll(() => nav.getByRole('button', { name: /Moderation/ }).innerText()).toContain('3');

    // From here on, the keyboard only: 3 is the third queue, the moderation queue.
    await page.keyboard.press('3');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
    // Most open reports first, and focus lands on it.
    await expect.poll(() => focusedText(page)).toContain(reported.title);
    const firstRow = await focusedText(page);
    expect(firstRow).toContain('Hidden');
    expect(firstRow).toContain('3 open reports');
    expect(firstRow).toContain('Names or shows personal information');
    expect(firstRow).toContain('by Casey Citizen');
    await expectAccessible(page, 'moderation queue');

    // j and k move through the queue.
    await page.keyboard.press('j');
    await expect.poll(() => focusedText(page)).not.toContain(reported.title);
    await page.keyboard.press('k');
    await expect.poll(() => focusedText(page)).toContain(reported.title);

    // The ? sheet lists the moderation keys.
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expectOnPage(sheet).toBeVisible();
    for (const text of ['Moderation queue: mark or unmark', 'Moderation case: restore', 'Moderation case: reject']) {
      await expectOnPage(sheet.getByText(text, { exact: false })).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expectOnPage(sheet).toBeHidden();
    await expect.poll(() => focusedText(page)).toContain(reported.title);

    await page.keyboard.press('Enter');
    await expectOnPage(page.getByRole('heading', { level: 1, name: reported.title })).toBeVisible();
    // The case: every report with its reason and text, the creator, their other petitions.
    const main = page.getByRole('main');
    await expectOnPage(main.getByText('It names a pupil at a real school.')).toBeVisible();
    await expectOnPage(main.getByText('The square already has a name.')).toBeVisible();
    await expectOnPage(main.getByText(/Casey Citizen \(user 2001\)/)).toBeVisible();
    await expectOnPage(main.getByText(new RegExp(`#${toHide.id} ${toHide.title}`))).toBeVisible();
    await expectOnPage(main.getByText('Hidden by members’ reports', { exact: false }).first()).toBeVisible();
    // A hidden petition can be kept, rejected or restored, not hidden again.
    expect(await main.getByRole('button', { name: /^Hide/ }).count()).toBe(0);
    await expectAccessible(page, 'moderation case');

    await page.keyboard.press('r');
    await expect.poll(() => focusedText(page)).toContain('Restore');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByText(`Queued: Restore petition #${reported.id}`)).toBeVisible();
    // On to the next case still waiting.
    await expectOnPage(page.getByRole('heading', { level: 1, name: new RegExp(`${toHide.title}|${toReject.title}`) })).toBeVisible();

    await expect.poll(() => page.getByRole('button', { name: /^Outbox/ }).innerText(), { timeout: 15_000 }).toContain('0 queued · 0 sending · 0 need attention');
    await expect.poll(() => inPublicList(stack, reported), { timeout: 5_000 }).toBe(true);
    const after = await publicRead<PetitionDetail>(stack, `/api/petitions/${reported.id}`);
    expect(after.status).toBe(200);
    // Everything as it was: signatures, status, response, term; only the version moved.
    const { version: _before, ...was } = before;
    const { version: _after, ...is } = after.body;
    expect(is).toEqual(was);
    expect(after.body.version).toBeGreaterThan(before.version);
    expect(await auditCount(stack, { action: 'moderation.restore', targetId: reported.id })).toBe(1);
    // It left the queue once applied.
    await page.keyboard.press('Escape');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
    await expect.poll(() => page.getByRole('main').innerText(), { timeout: 15_000 }).not.toContain(reported.title);
    await expect.poll(() => nav.getByRole('button', { name: /Moderation/ }).innerText()).toContain('2');
    expect(errors).toEqual([]);
  }, 150_000);

  it('hides with a reason and rejects with a standard reason, each checked before it is queued', async () => {
    const { stack } = journey;
    // The same console, still signed in as the Leader of the House.
    const { page, errors } = await openPage(journey.browser);
    await page.goto(instance.openAddress());
    await expectOnPage(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
    await page.keyboard.press('3');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
    // Nothing rejected yet: the empty view says so.
    await page.getByRole('combobox', { name: 'Show' }).selectOption('rejected');
    await expectOnPage(page.getByText(MODERATION_TEXTS.rejectedEmpty)).toBeVisible();
    await expectAccessible(page, 'empty rejected view');
    await page.getByRole('combobox', { name: 'Show' }).selectOption('review');

    // Hide: h puts the cursor in the reason; an empty reason is refused with the shared text.
    await page.getByRole('button', { name: new RegExp(toHide.title) }).click();
    await expectOnPage(page.getByRole('heading', { level: 1, name: toHide.title })).toBeVisible();
    await page.keyboard.press('h');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('case-hide');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByText('Please give a reason for hiding this petition')).toBeVisible();
    await expectAccessible(page, 'hide reason refused');
    await page.keyboard.type('Homework rules are for schools, not this site.');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByText(`Queued: Hide petition #${toHide.id}`)).toBeVisible();
    await expect.poll(async () => (await publicRead(stack, `/api/petitions/${toHide.id}`)).status, { timeout: 15_000 }).toBe(404);
    expect(await inPublicList(stack, toHide)).toBe(false);

    // Reject: the palette finds the case by a word of its title; x puts focus on the reasons; Enter with none chosen is refused.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('trainers');
    await expectOnPage(page.getByRole('option', { name: new RegExp(`Moderation case #${toReject.id} ${toReject.title}`) })).toBeVisible();
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByRole('heading', { level: 1, name: toReject.title })).toBeVisible();
    await page.keyboard.press('x');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('case-reject');
    await page.keyboard.press('Enter');
    await expectOnPage(page.getByText('Choose a rejection reason')).toBeVisible();
    await page.getByRole('combobox', { name: 'Rejection reason' }).selectOption('advertising');
    await page.getByRole('combobox', { name: 'Rejection reason' }).press('Enter');
    await expectOnPage(page.getByText(`Queued: Reject petition #${toReject.id} (advertising)`)).toBeVisible();
    // The public gets the tombstone with the reason's text, never the petition.
    await expect.poll(async () => (await publicRead(stack, `/api/petitions/${toReject.id}`)).status, { timeout: 15_000 }).toBe(410);
    const tombstone = await publicRead<{ rejection: { code: string; text: string } }>(stack, `/api/petitions/${toReject.id}`);
    expect(tombstone.body.rejection.code).toBe('advertising');
    expect(JSON.stringify(tombstone.body)).not.toContain(toReject.title);

    // The rejected view lists it; from there it can be restored.
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Show' }).selectOption('rejected');
    await expectOnPage(page.getByRole('button', { name: new RegExp(toReject.title) })).toBeVisible();
    await expectAccessible(page, 'rejected view');
    expect(await auditCount(stack, { action: 'moderation.hide', targetId: toHide.id })).toBe(1);
    expect(await auditCount(stack, { action: 'moderation.reject', targetId: toReject.id })).toBe(1);
    expect(errors).toEqual([]);
  }, 120_000);

  it('leaves the Leader where they went when they press Escape before the console has queued their decision', async () => {
    const { stack } = journey;
    const kept = await seedPetition(stack.context, { title: 'Plant a tree for every signature', signatures: 2 });
    const waiting = await seedPetition(stack.context, { title: 'Longer lunch breaks on Mondays', signatures: 2 });
    await reportAsMembers(stack, kept.id, [{ reason: 'spam' }]);
    await reportAsMembers(stack, waiting.id, [{ reason: 'spam' }]);
    const { page, errors } = await openPage(journey.browser);
    // The console host is slow to take the decision: its enqueue call is held until released.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let enqueueCalls = 0;
    await page.route(`**${BRIDGE_INVOKE_PATH}`, async (route) => {
      if (!route.request().postData()?.includes('"channel":"outbox:enqueue"')) return route.continue();
      enqueueCalls += 1;
      await held;
      await route.continue();
    });
    await page.goto(instance.openAddress());
    await expectOnPage(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
    await page.keyboard.press('3');
    await expectOnPage(page.getByRole('button', { name: new RegExp(waiting.title) })).toBeVisible();
    await page.getByRole('button', { name: new RegExp(kept.title) }).click();
    await expectOnPage(page.getByRole('heading', { level: 1, name: kept.title })).toBeVisible();
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    await expect.poll(() => enqueueCalls).toBe(1);
    await page.keyboard.press('Escape');
    await expectOnPage(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();

    release();
    await expectOnPage(page.getByText(`Queued: Keep petition #${kept.id}`)).toBeVisible();
    // Not taken to the next case waiting (the moderation queue's "move on" is for a member still on the case).
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Moderation');
    await expect.poll(() => auditCount(stack, { action: 'moderation.keep', targetId: kept.id }), { timeout: 15_000 }).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Moderation');
    expect(errors).toEqual([]);
  }, 90_000);

  it('gives a Cabinet Minister (rank 6) no moderation queue', async () => {
    const { page, errors } = await openPage(journey.browser);
    await page.goto(instance.openAddress());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInFromConsole(journey.browser, page, instance, 'Cabinet Minister');
    const nav = page.getByRole('navigation', { name: 'Console' });
    await expectOnPage(nav.getByRole('button', { name: /Awaiting government response/ })).toBeVisible();
    expect(await nav.getByRole('button', { name: /Moderation/ }).count()).toBe(0);
    await page.keyboard.press('3');
    await page.keyboard.press('2');
    expect(await page.getByRole('heading', { level: 1, name: 'Moderation' }).count()).toBe(0);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Moderation');
    await expectOnPage(page.getByText('Nothing matches.')).toBeVisible();
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  }, 60_000);
});
