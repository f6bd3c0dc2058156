/**
 * Hiding by reports on two server nodes sharing one PostgreSQL database (always PostgreSQL): the
 * reports go to one node, and the other node's public list, search and API drop the petition
 * within a second, even where that node keeps list pages for a while (a large site: moderation
 * watermark). Restoring on the other node brings it back everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PetitionList } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { insertPetition } from './public-test-data.ts';

let database: TestDatabase;
let nodes: TestApi[];
let reporters: string[];

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  nodes = [];
  // A large site from the first petition on: both nodes keep list pages and totals for seconds.
  for (let i = 0; i < 2; i += 1) nodes.push(await startTestApi({ databaseUrl: database.url }, { largeSitePetitions: 1 }));
  reporters = [];
  for (let i = 0; i < 3; i += 1) {
    reporters.push(await nodes[0]!.signIn({ id: String(740_000 + i), username: `r${i}`, displayName: `R ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 }));
  }
});
afterAll(async () => {
  for (const node of nodes ?? []) await node.close();
  await database?.drop();
});

async function seen(node: TestApi, id: number): Promise<{ list: boolean; search: boolean; detail: number }> {
  const list = (await node.request({ url: '/api/petitions?pageSize=100' })).json<PetitionList>();
  const search = (await node.request({ url: '/api/petitions?search=glimmerfen' })).json<PetitionList>();
  const detail = (await node.request({ url: `/api/petitions/${id}` })).statusCode;
  return { list: list.items.some((p) => p.id === id), search: search.items.some((p) => p.id === id), detail };
}

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('three reports on one node', () => {
  it('hide the petition from the other node within a second, and a restore there brings it back', async () => {
    const [a, b] = nodes as [TestApi, TestApi];
    const petition = await insertPetition(a.context.db, { title: 'Drain the glimmerfen marsh' });
    // Node B has the pages in its cache before the reports arrive.
    expect(await seen(b, petition.id)).toEqual({ list: true, search: true, detail: 200 });
    for (const cookie of reporters) {
      expect((await a.request({ method: 'POST', url: `/api/petitions/${petition.id}/reports`, payload: { reason: 'offensive' }, cookie })).statusCode).toBe(201);
    }
    const hiddenAfter = await within(1_000, async () => JSON.stringify(await seen(b, petition.id)) === JSON.stringify({ list: false, search: false, detail: 404 }));
    expect(hiddenAfter).toBeLessThan(1_000);

    const leader = await b.signInAs('rank7');
    const version = (await b.request({ url: `/api/petitions/${petition.id}`, cookie: leader })).json<{ version: number }>().version;
    const restore = await b.request({ method: 'POST', url: `/api/petitions/${petition.id}/moderation`, payload: { decision: 'restore' }, headers: { 'if-match': `"${version}"` }, cookie: leader });
    expect(restore.statusCode, restore.body).toBe(200);
    await within(1_000, async () => JSON.stringify(await seen(a, petition.id)) === JSON.stringify({ list: true, search: true, detail: 200 }));
  });
});

describe('50 members report one petition on two nodes at the same moment', () => {
  it('hide it exactly once, with exactly REPORTS_TO_HIDE reports stored', async () => {
    const [a, b] = nodes as [TestApi, TestApi];
    const petition = await insertPetition(a.context.db, { title: 'Pave the bramblewick lane' });
    const cookies: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const node = i % 2 === 0 ? a : b;
      cookies.push(await node.signIn({ id: String(750_000 + i), username: `c${i}`, displayName: `C ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 }));
    }
    const answers = await Promise.all(
      cookies.map((cookie, i) => (i % 2 === 0 ? a : b).request({ method: 'POST', url: `/api/petitions/${petition.id}/reports`, payload: { reason: 'spam' }, cookie })),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.every((status) => status === 201 || status === 404), String(statuses)).toBe(true);
    expect(statuses.filter((status) => status === 201)).toHaveLength(a.context.config.moderation.reportsToHide);
    const db = a.context.db;
    expect(await db.selectFrom('petition_reports').select('id').where('petition_id', '=', petition.id).execute()).toHaveLength(3);
    const hides = await db.selectFrom('moderation_events').select('id').where('petition_id', '=', petition.id).execute();
    expect(hides).toHaveLength(1);
  });
});
