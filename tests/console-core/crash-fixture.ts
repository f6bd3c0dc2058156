/**
 * The crash tests' workload: 1,000 staff actions, two per petition (a response, then closing it,
 * each on the version the previous one leaves), plus petitions someone else changed meanwhile,
 * whose single action must end as a conflict. Every action leaves a recognisable audit row.
 */
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src-server/db/schema.ts';
import type { AppContext } from '../../src-server/context.ts';
import type { OutboxEntry } from '../../src-shared/console/outbox.ts';
import { StaffActionSchema, type StaffAction } from '../../src-shared/console/staff-actions.ts';
import { seedPetition } from '../support/fixtures.ts';

export const PAIRED_PETITIONS = 490;
export const STALE_PETITIONS = 20;
export const CRASH_ACTIONS = PAIRED_PETITIONS * 2 + STALE_PETITIONS;
const STALE_VERSION = 5;

export interface CrashWorkload {
  paired: number[];
  stale: number[];
  actions: StaffAction[];
}

export const responseText = (id: number) => `Crash-test response for petition ${id}.`;

export async function seedCrashWorkload(db: Kysely<Database>): Promise<CrashWorkload> {
  const context = { db, now: () => new Date() } as unknown as AppContext;
  const paired: number[] = [];
  const stale: number[] = [];
  for (let i = 0; i < PAIRED_PETITIONS; i += 1) paired.push((await seedPetition(context, { title: `Crash paired ${i}`, termId: null })).id);
  for (let i = 0; i < STALE_PETITIONS; i += 1) stale.push((await seedPetition(context, { title: `Crash stale ${i}`, termId: null })).id);
  // Someone else edited these after the console read them.
  await db.updateTable('petitions').set({ version: STALE_VERSION }).where('id', 'in', stale).execute();
  const actions: StaffAction[] = [];
  const respond = (id: number) => StaffActionSchema.parse({
    kind: 'response.save', petitionId: id, baseVersion: 1, body: { response_text: responseText(id), added_by_role: 'Chancellor of the Exchequer' },
  });
  for (const id of paired) {
    actions.push(respond(id));
    actions.push(StaffActionSchema.parse({ kind: 'petition.setStatus', petitionId: id, baseVersion: 2, status: 'closed' }));
  }
  for (const id of stale) actions.push(respond(id));
  return { paired, stale, actions };
}

/** Every action applied exactly once (one audit row each, in the server's log) or shown as a conflict. */
export async function expectExactlyOnce(db: Kysely<Database>, workload: CrashWorkload, entries: OutboxEntry[]): Promise<void> {
  expect(entries).toHaveLength(CRASH_ACTIONS);
  const byState = (state: string) => entries.filter((e) => e.state === state);
  expect(byState('applied')).toHaveLength(PAIRED_PETITIONS * 2);
  expect(byState('conflict')).toHaveLength(STALE_PETITIONS);
  for (const conflict of byState('conflict')) expect(conflict.serverPetition?.version).toBe(STALE_VERSION);
  // The crashes did interrupt sync: some rows went out more than once, with their one key.
  expect(entries.filter((e) => e.attempts >= 2).length).toBeGreaterThan(0);

  const audits = await db.selectFrom('audit_log').select(['action', 'target_id', 'after']).where('target_type', '=', 'petition').execute();
  const count = new Map<string, number>();
  for (const row of audits) count.set(`${row.action} ${row.target_id}`, (count.get(`${row.action} ${row.target_id}`) ?? 0) + 1);
  const wrong: string[] = [];
  for (const id of workload.paired) {
    for (const action of ['government_response.add', 'petition.set_status']) {
      if (count.get(`${action} ${id}`) !== 1) wrong.push(`${action} ${id}: ${count.get(`${action} ${id}`) ?? 0}`);
    }
  }
  for (const id of workload.stale) if (audits.some((row) => row.target_id === String(id))) wrong.push(`stale ${id} changed`);
  expect(wrong).toEqual([]);
  expect(audits).toHaveLength(PAIRED_PETITIONS * 2);

  const rows = await db.selectFrom('petitions').select(['id', 'status', 'version', 'government_response']).where('id', 'in', workload.paired).execute();
  for (const row of rows) expect(row).toEqual({ id: row.id, status: 'closed', version: 3, government_response: responseText(row.id) });
}
