/**
 * Journey: two consoles (two ministers) answer the same petition. The second gets the conflict card
 * (the server's response, who, role and when, beside their draft), chooses "Submit mine as the new
 * version", and the server ends with that text and an audit trail of both. Never last-write-wins:
 * nothing is sent over the first answer until the second minister decides.
 */
import { describe, expect, it } from 'vitest';
import { seedPetition } from '../support/fixtures.ts';
import type { ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { expectAccessible, expectOnPage } from '../support/chromium.ts';

const consoles: ConsoleInstance[] = [];
let petition: { id: number; title: string };

const journey = consoleJourney(
  async ({ stack, openConsole }) => {
    petition = await seedPetition(stack.context, { title: 'Free swimming lessons for children', signatures: 13, status: 'awaiting_government_response' });
    for (const redirect of [0, 1]) consoles.push(await openConsole({ redirect }));
  },
  { consoles: 2 },
);

async function auditActions(): Promise<{ action: string; actor_role: string }[]> {
  return journey.stack.context.db
    .selectFrom('audit_log')
    .select(['action', 'actor_role'])
    .where('target_id', '=', String(petition.id))
    .where('action', 'like', 'government_response.%')
    .orderBy('id')
    .execute();
}

describe('two consoles answer the same petition', () => {
  it('shows the second a conflict card and applies their version only when they choose to', async () => {
    const [a, b] = consoles as [ConsoleInstance, ConsoleInstance];
    const first = await journey.signedInPage(a, 'Cabinet Minister');
    const second = await journey.signedInPage(b, 'Prime Minister');

    // Both open the petition (version 1) and write their answers.
    for (const { page } of [first, second]) {
      await page.getByRole('button', { name: new RegExp(petition.title) }).click();
      await expectOnPage(page.getByRole('heading', { level: 2, name: 'Add Government Response' })).toBeVisible();
    }
    await first.page.getByRole('textbox', { name: 'Government response' }).fill('Lessons will be free from April.');
    await first.page.getByRole('combobox', { name: 'Your government role' }).selectOption('Education Secretary');
    await first.page.getByRole('button', { name: 'Submit Response' }).click();
    await expect.poll(() => first.page.getByRole('button', { name: /^Outbox/ }).innerText(), { timeout: 15_000 }).toContain('0 queued · 0 sending');
    await expect.poll(async () => (await auditActions()).length).toBe(1);

    await second.page.getByRole('textbox', { name: 'Government response' }).fill('Lessons will be free for under-12s from May.');
    await second.page.getByRole('combobox', { name: 'Your government role' }).selectOption('Prime Minister');
    await second.page.getByRole('button', { name: 'Submit Response' }).click();
    await expect.poll(() => second.page.getByRole('button', { name: /^Outbox/ }).innerText(), { timeout: 15_000 }).toContain('1 need attention');
    await expectOnPage(second.page.getByText(/Needs attention: Government response to petition/)).toBeVisible();

    await second.page.getByRole('button', { name: /^Outbox/ }).click();
    const card = second.page.getByRole('group', { name: `Conflict: Government response to petition #${petition.id}` });
    await expectOnPage(card).toBeVisible();
    const server = card.getByRole('region', { name: 'On the server now' });
    const mine = card.getByRole('region', { name: 'Your draft' });
    expect(await server.innerText()).toContain('Lessons will be free from April.');
    expect(await server.innerText()).toContain('Education Secretary');
    expect(await mine.innerText()).toContain('Lessons will be free for under-12s from May.');
    expect(await mine.innerText()).toContain('Prime Minister');
    await expectAccessible(second.page, 'conflict card');
    // Still the first answer on the server: nothing overwrote it.
    expect((await auditActions()).map((r) => r.action)).toEqual(['government_response.add']);

    await card.getByRole('button', { name: 'Submit mine as the new version' }).click();
    await expect.poll(() => second.page.getByRole('button', { name: /^Outbox/ }).innerText(), { timeout: 15_000 }).toContain('0 queued · 0 sending · 0 need attention');

    const final = (await (await fetch(`${journey.stack.baseUrl}/api/petitions/${petition.id}`)).json()) as {
      governmentResponse: string;
      governmentResponseMeta: { addedByRole: string; editedByRole: string | null };
    };
    expect(final.governmentResponse).toBe('Lessons will be free for under-12s from May.');
    expect(final.governmentResponseMeta).toMatchObject({ addedByRole: 'Education Secretary', editedByRole: 'Prime Minister' });
    expect((await auditActions()).map((r) => r.action)).toEqual(['government_response.add', 'government_response.edit']);
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
  }, 150_000);
});
