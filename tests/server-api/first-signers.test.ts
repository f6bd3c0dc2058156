/**
 * The petition page's first signers come with the petition's row (PetitionPageRow): on SQLite stored in
 * it (`first_signers`, kept by triggers, migrations 0005 and 0006), on PostgreSQL read from the
 * signatures (migration 0027) and kept with the row by each node's petition cache. Whatever writes the
 * signatures, in whatever order of time, that list must equal the first page of the signers endpoint,
 * which reads the signature rows themselves. Direct writes here keep the petition's count exact, as
 * every writer of signatures must: on PostgreSQL that count update is what tells the caches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PetitionDetailSchema, type User } from '../../src-shared/domain/schemas.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { databaseAt } from '../support/database-at.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';
import { findPetitionPage } from '../../src-server/petitions/petition-reads.ts';

let api: TestApi;
afterEach(async () => {
  await api?.close();
});

async function shownAndStored(petitionId: number) {
  const reply = await api.request({ url: `/api/petitions/${petitionId}` });
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  const detail = PetitionDetailSchema.parse(reply.json());
  const page = (await api.request({ url: `/api/petitions/${petitionId}/signers?limit=10` })).json<{ items: unknown[] }>();
  return { shown: detail.signers, stored: page.items };
}

/** Signs in `count` members with ids from `firstId` (usernames `<prefix><i>`, names `<name> <i>`); their cookies, in order. */
async function signInMembers(count: number, firstId: number, prefix: string, name: string): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i += 1) {
    cookies.push(await api.signIn({ id: String(firstId + i), username: `${prefix}${i}`, displayName: `${name} ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 }));
  }
  return cookies;
}

/**
 * PostgreSQL: reads the petition page until this node's petition cache answers it (the cache answers
 * nothing until it trusts its notices, nor for a moment after each of this node's commits), so a
 * change that announced nothing would show as a stale list afterwards. SQLite has no such cache.
 */
async function untilServedFromCache(petitionId: number) {
  if (api.context.dialect !== 'postgres') return;
  await expect
    .poll(async () => {
      const hits = api.context.petitionCache.stats().hit;
      await api.request({ url: `/api/petitions/${petitionId}` });
      return api.context.petitionCache.stats().hit > hits;
    })
    .toBe(true);
}

/** Deletes signatures straight from the table (one member's, or all) and stores the count that follows. */
async function deleteSignatures(petitionId: number, userId?: string) {
  const deleted = await api.context.db
    .deleteFrom('signatures')
    .where('petition_id', '=', petitionId)
    .$if(userId !== undefined, (query) => query.where('user_id', '=', userId!))
    .executeTakeFirst();
  await api.context.db
    .updateTable('petitions')
    .set((eb) => ({ signature_count: eb('signature_count', '-', Number(deleted.numDeletedRows)) }))
    .where('id', '=', petitionId)
    .execute();
}

describe('first signers on the petition page', () => {
  it('follow signing, unsigning and direct inserts of older signatures', async () => {
    api = await startTestApi();
    const petition = await insertPetition(api.context.db);
    const cookies = await signInMembers(14, 910_000, 'p', 'Person');
    const sign = (i: number, action = 'sign') =>
      api.request({ method: 'POST', url: `/api/petitions/${petition.id}/${action}`, cookie: cookies[i], payload: {} });

    for (let i = 0; i < 4; i += 1) expect((await sign(i)).statusCode).toBe(200);
    let { shown, stored } = await shownAndStored(petition.id);
    expect(shown).toHaveLength(4);
    expect(shown).toEqual(stored);

    // Past the first ten: later signers do not change the list.
    for (let i = 4; i < 14; i += 1) expect((await sign(i)).statusCode).toBe(200);
    ({ shown, stored } = await shownAndStored(petition.id));
    expect(shown).toHaveLength(10);
    expect(shown).toEqual(stored);
    expect(shown.map((s) => (s as { id: string }).id)).not.toContain(String(910_013));

    // A listed signer leaves: the eleventh moves up.
    expect((await sign(2, 'unsign')).statusCode).toBe(200);
    ({ shown, stored } = await shownAndStored(petition.id));
    expect(shown).toEqual(stored);
    expect(shown.map((s) => (s as { id: string }).id)).toContain(String(910_010));

    // Rows written directly, older than everyone listed, go to the front.
    await addSignatures(api.context.db, petition.id, 3, { signedAt: (i) => new Date(Date.UTC(2020, 0, 1, 0, 0, i)).toISOString() });
    ({ shown, stored } = await shownAndStored(petition.id));
    expect(shown).toEqual(stored);
    expect((shown[0] as { signed_at: string }).signed_at).toBe('2020-01-01T00:00:00.000Z');
    expect(shown[0]).toMatchObject({ avatar: expect.stringMatching(/^\/avatar\//) });

    // An unlisted signer leaving changes nothing; everyone leaving empties the list.
    await deleteSignatures(petition.id, String(910_013));
    ({ shown, stored } = await shownAndStored(petition.id));
    expect(shown).toEqual(stored);
    await deleteSignatures(petition.id);
    ({ shown, stored } = await shownAndStored(petition.id));
    expect(shown).toEqual([]);
    expect(stored).toEqual([]);
  });

  it('follow a burst of signers written in one batch, and a second burst past the first ten', async () => {
    api = await startTestApi();
    const petition = await insertPetition(api.context.db);
    const cookies = await signInMembers(16, 920_000, 'b', 'Burst');
    const burst = (from: number, to: number) =>
      Promise.all(cookies.slice(from, to).map((cookie) => api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie, payload: {} })));
    // Calls that arrive together are written together (docs/rules.md#signing): appended in their order, up to ten.
    expect((await burst(0, 7)).map((reply) => reply.statusCode)).toEqual(Array(7).fill(200));
    let { shown, stored } = await shownAndStored(petition.id);
    expect(shown).toHaveLength(7);
    expect(shown).toEqual(stored);
    expect((await burst(7, 16)).map((reply) => reply.statusCode)).toEqual(Array(9).fill(200));
    ({ shown, stored } = await shownAndStored(petition.id));
    expect(shown).toHaveLength(10);
    expect(shown).toEqual(stored);
  });

  it('follow a listed signer who unsigns and signs again in one batch (the count unchanged) to the end of the list', async () => {
    api = await startTestApi();
    const petition = await insertPetition(api.context.db);
    const cookies = await signInMembers(3, 930_000, 'r', 'Again');
    for (let i = 0; i < 3; i += 1) {
      expect((await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: cookies[i], payload: {} })).statusCode).toBe(200);
    }
    await untilServedFromCache(petition.id);
    const before = await shownAndStored(petition.id);
    expect(before.shown.map((s) => (s as { id: string }).id)).toEqual(['930000', '930001', '930002']);
    // Called on the signing service in one turn of the event loop, so both calls are in one batch.
    const again: User = { id: '930000', username: 'r0', displayName: 'Again 0', avatar: '/avatar/930000', rank: 1, userType: 'Citizen', government_rank: 0, citizen_rank: 1, can_sign: true, groups_unavailable: false };
    const results = await Promise.all([api.context.signing.unsign(again, petition.id), api.context.signing.sign(again, petition.id)]);
    expect(results.map((result) => result.signatures)).toEqual([2, 3]);
    await untilServedFromCache(petition.id);
    const { shown, stored } = await shownAndStored(petition.id);
    expect(shown).toEqual(stored);
    expect(shown.map((s) => (s as { id: string }).id)).toEqual(['930001', '930002', '930000']);
  });

  it('are filled in for petitions that had signatures before migration 0005', async () => {
    api = await startTestApi();
    const file = path.join(api.dir, 'old.db');
    const old = await databaseAt(file, '0004_clustered_keys');
    const petition = await insertPetition(old);
    await addSignatures(old, petition.id, 12);
    await old.destroy();

    const database = await openDatabase(`sqlite:${file}`);
    const row = (await findPetitionPage(database.db, petition.id))!;
    await database.close();
    fs.rmSync(file, { force: true });
    const listed = JSON.parse(row.first_signers) as { id: string }[];
    expect(listed.map((s) => s.id)).toEqual(Array.from({ length: 10 }, (_, i) => `5${String(i + 1).padStart(5, '0')}`));
  });

  it('are rewritten in the shape the API shows for databases at 0005', async () => {
    api = await startTestApi();
    const file = path.join(api.dir, 'at-0005.db');
    const old = await databaseAt(file, '0005_first_signers');
    const petition = await insertPetition(old);
    await addSignatures(old, petition.id, 3);
    const before = (await findPetitionPage(old, petition.id))!;
    expect(Object.keys((JSON.parse(before.first_signers) as object[])[0]!)).toEqual(['id', 'username', 'displayName', 'signed_at']);
    await old.destroy();

    const database = await openDatabase(`sqlite:${file}`);
    try {
      const read = async () =>
        JSON.parse((await findPetitionPage(database.db, petition.id))!.first_signers) as Record<string, string>[];
      const listed = await read();
      expect(listed).toHaveLength(3);
      for (const signer of listed) {
        expect(Object.keys(signer)).toEqual(['id', 'username', 'displayName', 'avatar', 'signed_at']);
        expect(signer.avatar).toBe(`/avatar/${signer.id}`);
      }
      // The replaced triggers append in the new shape too.
      await addSignatures(database.db, petition.id, 1, { prefix: '6', signedAt: () => new Date(Date.UTC(2030, 0, 1)).toISOString() });
      const appended = (await read()).at(-1)!;
      expect(appended.signed_at).toBe('2030-01-01T00:00:00.000Z');
      expect(appended.avatar).toBe(`/avatar/${appended.id}`);
    } finally {
      await database.close();
      fs.rmSync(file, { force: true });
    }
  });
});
