/**
 * Journey: the administrator reviews unusual signing in the console, previews an invalidation while
 * online, finds the preview needs the server once offline, queues the invalidation anyway, and sees
 * it applied once the console is back online (docs/integrity.md). axe-core checks the screen.
 */
import { describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/chromium.ts';
import { seedPetition } from '../support/fixtures.ts';
import type { SwitchableForwarder } from '../support/switchable-forwarder.ts';
import { consoleSetup, openConsole, type ConsoleSetup } from './harness.ts';
import { consoleJourney } from './journey.ts';

let setup: ConsoleSetup;
let forwarder: SwitchableForwarder;
let pushed: { id: number; title: string };

const journey = consoleJourney(async ({ stack, redirects, forwarder: forwarderToBackend }) => {
  pushed = await seedPetition(stack.context, { title: 'Make Friday a holiday', signatures: 1 });
  const signedAt = Date.now() - 40_000;
  for (let i = 0; i < 10; i += 1) {
    const id = String(4400 + i);
    await stack.context.users.upsert({
      id,
      username: `fresh${i}`,
      displayName: `Fresh ${i}`,
      avatarUrl: null,
      citizenRank: 1,
      governmentRank: 0,
      accountCreatedAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    await stack.context.db
      .insertInto('signatures')
      .values({ petition_id: pushed.id, user_id: id, username: `fresh${i}`, display_name: `Fresh ${i}`, signed_at: new Date(signedAt + i * 2000).toISOString() })
      .execute();
  }
  await stack.context.db.updateTable('petitions').set({ signature_count: 11 }).where('id', '=', pushed.id).execute();
  await stack.context.integrity.monitor.scan();
  forwarder = await forwarderToBackend();
  setup = await consoleSetup(forwarder.url, redirects[0]!);
});

describe('signature integrity in the console', () => {
  it('shows unusual signing, previews online, says the preview needs the server offline, and queues the invalidation', async () => {
    const instance = await openConsole(setup);
    const { page, errors } = await journey.signedInPage(instance, 'System Administrator');
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('button', { name: 'Unusual signing and invalidation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Unusual signing and invalidation' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Make Friday a holiday' });
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => row.innerText()).toContain('Mostly accounts younger than 30 days');
    await expectAccessible(page, 'console: unusual signing');

    await row.getByRole('button', { name: /Review signatures/ }).click();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByRole('heading', { name: '10 signatures on 1 petition match' }).waitFor({ timeout: 20_000 });
    await expectAccessible(page, 'console: preview');

    await forwarder.down();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText('The preview needs the server, and it cannot be reached now.', { exact: false }).waitFor({ timeout: 20_000 });
    await page.getByLabel('Reason (recorded in the audit log)').fill('Alternate accounts, seen on the monitor');
    await page.getByRole('button', { name: 'Queue the invalidation' }).click();
    await page.getByText(`Queued: Invalidate signatures of petition #${pushed.id}`).waitFor({ timeout: 20_000 });
    await expectAccessible(page, 'console: invalidation queued offline');

    await forwarder.up();
    const jobs = () => journey.stack.context.db.selectFrom('invalidation_jobs').select(['id', 'kind']).execute();
    await expect.poll(async () => (await jobs()).length, { timeout: 30_000 }).toBe(1);
    await journey.stack.context.integrity.runner.runUntilIdle();
    const petition = await journey.stack.context.db.selectFrom('petitions').select('signature_count').where('id', '=', pushed.id).executeTakeFirstOrThrow();
    expect(petition.signature_count).toBe(1);
    expect(errors).toEqual([]);
  }, 180_000);
});
