/**
 * On a large site signature counts are written behind (signature-counts.ts), once a petition's
 * first signers are full: until then its row is rewritten with each signer anyway, and the count is
 * written with it. These tests make every site large (threshold 1 petition) and check what that must
 * never change: every reply shows the exact count, thresholds change the status at once, settling
 * makes the stored count equal the rows, and a server that stopped with counts pending recounts them
 * when it starts again.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-server/app.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { SIGNERS_PREVIEW_COUNT } from '../../src-shared/domain/constants.ts';
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

/** A petition whose first signers are full, so that its next counts are written behind; and more citizens. */
async function petitionWithFullList(more: number) {
  const petition = await insertPetition(api.context.db);
  const cookies = await citizens(SIGNERS_PREVIEW_COUNT + more);
  for (const cookie of cookies.slice(0, SIGNERS_PREVIEW_COUNT)) await sign(petition.id, cookie);
  expect(await stored(petition.id)).toMatchObject({ count: SIGNERS_PREVIEW_COUNT, rows: SIGNERS_PREVIEW_COUNT });
  return { petition, cookies: cookies.slice(SIGNERS_PREVIEW_COUNT) };
}

describe('signature counts written behind on a large site', () => {
  it('answers with live counts while the stored count waits, and settles to the rows', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const { petition, cookies } = await petitionWithFullList(3);

    expect(await sign(petition.id, cookies[0]!)).toBe(11);
    expect(await sign(petition.id, cookies[1]!)).toBe(12);
    expect(await sign(petition.id, cookies[2]!)).toBe(13);
    expect(await sign(petition.id, cookies[1]!, 'unsign')).toBe(12);

    // Written behind: the rows are there, the stored count is not, and the flag says so.
    expect(await stored(petition.id)).toMatchObject({ count: 10, rows: 12, pendingFlag: 'true' });
    const detail = await api.request({ url: `/api/petitions/${petition.id}` });
    expect(detail.json()).toMatchObject({ signatures: 12 });
    expect((await api.request({ url: `/api/petitions/${petition.id}/count` })).json()).toMatchObject({ signatures: 12 });
    expect((await api.request({ url: `/api/petitions/${petition.id}/signers` })).json()).toMatchObject({ total: 12 });

    await api.context.signatureCounts.settle();
    expect(await stored(petition.id)).toMatchObject({ count: 12, rows: 12, pendingFlag: 'false' });
    expect((await api.request({ url: `/api/petitions/${petition.id}` })).json()).toMatchObject({ signatures: 12 });
  });

  it('writes the count with the first signers while the list has room or loses a listed signer', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const petition = await insertPetition(api.context.db);
    const cookies = await citizens(SIGNERS_PREVIEW_COUNT + 1);
    for (const [index, cookie] of cookies.slice(0, 3).entries()) {
      expect(await sign(petition.id, cookie)).toBe(index + 1);
      // The first-signers trigger rewrote the row: the count went with it, nothing waits.
      expect(await stored(petition.id)).toMatchObject({ count: index + 1, rows: index + 1 });
    }
    expect(api.context.signatureCounts.stats().pendingPetitions).toBe(0);

    for (const cookie of cookies.slice(3)) await sign(petition.id, cookie);
    // The eleventh signer is not listed: that count waits.
    expect(await stored(petition.id)).toMatchObject({ count: SIGNERS_PREVIEW_COUNT, rows: SIGNERS_PREVIEW_COUNT + 1, pendingFlag: 'true' });
    expect(api.context.signatureCounts.stats().pendingPetitions).toBe(1);

    // Whether a signer who leaves 10 behind was listed is not known: that count waits too. One who
    // leaves 9 was listed: the list is rebuilt, and the exact count is written with it.
    expect(await sign(petition.id, cookies[0]!, 'unsign')).toBe(SIGNERS_PREVIEW_COUNT);
    expect(await stored(petition.id)).toMatchObject({ count: SIGNERS_PREVIEW_COUNT, rows: SIGNERS_PREVIEW_COUNT });
    expect(api.context.signatureCounts.stats().pendingPetitions).toBe(1);
    expect(await sign(petition.id, cookies[1]!, 'unsign')).toBe(SIGNERS_PREVIEW_COUNT - 1);
    expect(await stored(petition.id)).toMatchObject({ count: SIGNERS_PREVIEW_COUNT - 1, rows: SIGNERS_PREVIEW_COUNT - 1 });
    expect(api.context.signatureCounts.stats().pendingPetitions).toBe(0);
    const detail = (await api.request({ url: `/api/petitions/${petition.id}` })).json<{ signatures: number; signers: { id: string }[] }>();
    expect(detail.signatures).toBe(SIGNERS_PREVIEW_COUNT - 1);
    expect(detail.signers.map((signer) => signer.id)).toEqual(Array.from({ length: SIGNERS_PREVIEW_COUNT - 1 }, (_, i) => String(800_002 + i)));
  });

  it('stores the exact count with the status the moment a threshold is crossed, either way', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const petition = await insertPetition(api.context.db);
    const cookies = await citizens(10);
    for (const cookie of cookies.slice(0, 9)) await sign(petition.id, cookie);
    expect(await stored(petition.id)).toMatchObject({ count: 9, status: 'open', version: 1, rows: 9 });

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
    const { petition, cookies } = await petitionWithFullList(3);
    for (const cookie of cookies) await sign(petition.id, cookie);
    await sql`CREATE TRIGGER refuse_counts BEFORE UPDATE OF signature_count ON petitions BEGIN SELECT RAISE(ABORT, 'disk says no'); END`.execute(api.context.db);

    await expect(api.context.signatureCounts.settle()).rejects.toThrow('disk says no');
    expect(await stored(petition.id)).toMatchObject({ count: 10, rows: 13, pendingFlag: 'true' });
    expect((await api.request({ url: `/api/petitions/${petition.id}/count` })).json()).toMatchObject({ signatures: 13 });

    await sql`DROP TRIGGER refuse_counts`.execute(api.context.db);
    await api.context.signatureCounts.settle();
    expect(await stored(petition.id)).toMatchObject({ count: 13, rows: 13, pendingFlag: 'false' });
  });

  it('recounts from the rows when a server stopped with counts still pending', async () => {
    api = await startTestApi({}, { largeSitePetitions: 1 });
    const { petition, cookies } = await petitionWithFullList(4);
    for (const cookie of cookies) await sign(petition.id, cookie);
    expect(await stored(petition.id)).toMatchObject({ count: 10, rows: 14, pendingFlag: 'true' });

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
    expect(row.signature_count).toBe(14);
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
