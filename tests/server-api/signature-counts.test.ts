/**
 * On a large site signature counts are written behind (signature-counts.ts). These tests make
 * every site large (threshold 1 petition) and check what that must never change: every reply shows
 * the exact count, thresholds change the status at once, settling makes the stored count equal the
 * rows, and a server that stopped with counts pending recounts them when it starts again.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-server/app.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertPetition } from './public-test-data.ts';

let api: TestApi;

afterEach(async () => {
  await api?.close();
});

async function citizens(count: number, firstId = 800_000): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i += 1) {
    cookies.push(await api.signIn({ id: String(firstId + i), username: `c${i}`, displayName: `Citizen ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 }));
  }
  return cookies;
}

async function stored(petitionId: number) {
  const db = api.context.db;
  const row = await db.selectFrom('petitions').select(['signature_count', 'status', 'version']).where('id', '=', petitionId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('signatures').select('user_id').where('petition_id', '=', petitionId).execute();
  const flag = await db.selectFrom('site_settings').select('value').where('key', '=', 'signature_counts_pending').executeTakeFirst();
  return { count: row.signature_count, status: row.status, version: row.version, rows: rows.length, pendingFlag: flag?.value ?? null };
}

async function sign(petitionId: number, cookie: string, action: 'sign' | 'unsign' = 'sign') {
  const response = await api.request({ method: 'POST', url: `/api/petitions/${petitionId}/${action}`, cookie, payload: {} });
  expect(response.statusCode).toBe(200);
  return response.json<{ signatures: number }>().signatures;
}

describe('signature counts written behind on a large site', () => {
  it('answers with live counts while the stored count waits, and settles to the rows', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const petition = await insertPetition(api.context.db);
    const cookies = await citizens(3);

    expect(await sign(petition.id, cookies[0]!)).toBe(1);
    expect(await sign(petition.id, cookies[1]!)).toBe(2);
    expect(await sign(petition.id, cookies[2]!)).toBe(3);
    expect(await sign(petition.id, cookies[1]!, 'unsign')).toBe(2);

    // Written behind: the rows are there, the stored count is not, and the flag says so.
    expect(await stored(petition.id)).toMatchObject({ count: 0, rows: 2, pendingFlag: 'true' });
    const detail = await api.request({ url: `/api/petitions/${petition.id}` });
    expect(detail.json()).toMatchObject({ signatures: 2 });
    expect((await api.request({ url: `/api/petitions/${petition.id}/count` })).json()).toMatchObject({ signatures: 2 });
    expect((await api.request({ url: `/api/petitions/${petition.id}/signers` })).json()).toMatchObject({ total: 2 });

    await api.context.signatureCounts.settle();
    expect(await stored(petition.id)).toMatchObject({ count: 2, rows: 2, pendingFlag: 'false' });
    expect((await api.request({ url: `/api/petitions/${petition.id}` })).json()).toMatchObject({ signatures: 2 });
  });

  it('stores the exact count with the status the moment a threshold is crossed, either way', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const petition = await insertPetition(api.context.db);
    const cookies = await citizens(10);
    for (const cookie of cookies.slice(0, 9)) await sign(petition.id, cookie);
    expect(await stored(petition.id)).toMatchObject({ count: 0, status: 'open', rows: 9 });

    expect(await sign(petition.id, cookies[9]!)).toBe(10);
    expect(await stored(petition.id)).toMatchObject({ count: 10, status: 'awaiting_government_response', version: 2, rows: 10 });

    expect(await sign(petition.id, cookies[0]!, 'unsign')).toBe(9);
    expect(await stored(petition.id)).toMatchObject({ count: 9, status: 'open', version: 3, rows: 9 });
  });

  it('keeps the stored count equal to the rows through a crowd of interleaved calls', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const petition = await insertPetition(api.context.db);
    const cookies = await citizens(200);
    const calls = cookies.flatMap((cookie, i) => (i % 3 === 0 ? [[cookie, 'sign'], [cookie, 'unsign'], [cookie, 'sign']] : [[cookie, 'sign']]));
    const responses = await Promise.all(
      calls.map(([cookie, action]) => api.request({ method: 'POST', url: `/api/petitions/${petition.id}/${action}`, cookie, payload: {} })),
    );
    // Calls of one user may be reordered against each other, so some are refused with a 409; none fails.
    for (const response of responses) expect([200, 409]).toContain(response.statusCode);
    const live = (await api.request({ url: `/api/petitions/${petition.id}/count` })).json<{ signatures: number }>().signatures;
    const before = await stored(petition.id);
    expect(live).toBe(before.rows);

    await api.context.signatureCounts.settle();
    const after = await stored(petition.id);
    expect(after.count).toBe(after.rows);
    expect(after.rows).toBe(live);
  });

  it('keeps the pending counts when writing them fails, and writes them on the next try', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const petition = await insertPetition(api.context.db);
    const cookies = await citizens(3);
    for (const cookie of cookies) await sign(petition.id, cookie);
    await sql`CREATE TRIGGER refuse_counts BEFORE UPDATE OF signature_count ON petitions BEGIN SELECT RAISE(ABORT, 'disk says no'); END`.execute(api.context.db);

    await expect(api.context.signatureCounts.settle()).rejects.toThrow('disk says no');
    expect(await stored(petition.id)).toMatchObject({ count: 0, rows: 3, pendingFlag: 'true' });
    expect((await api.request({ url: `/api/petitions/${petition.id}/count` })).json()).toMatchObject({ signatures: 3 });

    await sql`DROP TRIGGER refuse_counts`.execute(api.context.db);
    await api.context.signatureCounts.settle();
    expect(await stored(petition.id)).toMatchObject({ count: 3, rows: 3, pendingFlag: 'false' });
  });

  it('recounts from the rows when a server stopped with counts still pending', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const petition = await insertPetition(api.context.db);
    const cookies = await citizens(4);
    for (const cookie of cookies) await sign(petition.id, cookie);
    expect(await stored(petition.id)).toMatchObject({ count: 0, rows: 4, pendingFlag: 'true' });

    // A crash: the process is gone without writing its pending counts.
    const file = api.context.config.databaseUrl;
    const config = api.context.config;
    await api.database.close();

    const reopened = await openDatabase(file);
    const context = createAppContext({ config, db: reopened.db, dialect: reopened.dialect });
    const app = await buildApp(context, { logger: false });
    const row = await reopened.db.selectFrom('petitions').select('signature_count').where('id', '=', petition.id).executeTakeFirstOrThrow();
    const flag = await reopened.db.selectFrom('site_settings').select('value').where('key', '=', 'signature_counts_pending').executeTakeFirstOrThrow();
    await app.close();
    await reopened.close();
    expect(row.signature_count).toBe(4);
    expect(flag.value).toBe('false');
    // The first server is gone; only its directory is left to remove.
    const dir = api.dir;
    api = { ...api, close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  });
});

describe('signature counts on a small site', () => {
  it('stores every count at once', async () => {
    api = await startTestApi();
    const petition = await insertPetition(api.context.db);
    const [cookie] = await citizens(1);
    expect(await sign(petition.id, cookie!)).toBe(1);
    expect(await stored(petition.id)).toMatchObject({ count: 1, rows: 1, pendingFlag: null });
  });
});
