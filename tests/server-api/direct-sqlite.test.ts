/**
 * Hot paths run statements directly on the SQLite connection (direct-sqlite.ts). The connection is
 * shared with Kysely, so while a Kysely transaction is open across awaits, direct work must wait:
 * a read must not see that transaction's uncommitted rows, and a signature must not be written
 * inside it (it would vanish if that transaction rolled back).
 */
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedQuery } from '../../src-server/db/prepared-query.ts';
import type { Database } from '../../src-server/db/schema.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertPetition } from './public-test-data.ts';

let api: TestApi;
afterEach(async () => {
  await api?.close();
});

const titleOf = preparedQuery(['id'], (db, p: { id: number }) => db.selectFrom('petitions').select('title').where('id', '=', p.id));

/**
 * Opens a Kysely transaction that retitles the petition and then stays open until `release()`,
 * after which it rolls back (`transaction` rejects with 'roll back'). Resolves once the edit is made.
 */
async function holdRolledBackEdit(db: Kysely<Database>, petitionId: number, title: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let edited!: () => void;
  const editMade = new Promise<void>((resolve) => (edited = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await trx.updateTable('petitions').set({ title }).where('id', '=', petitionId).execute();
    edited();
    await held;
    throw new Error('roll back');
  });
  await editMade;
  return { transaction, release };
}

describe('direct SQLite work beside Kysely transactions', () => {
  it('reads wait for an open transaction and never see its uncommitted rows', async () => {
    api = await startTestApi();
    const petition = await insertPetition(api.context.db, { title: 'Before the edit' });
    const { transaction, release } = await holdRolledBackEdit(api.context.db, petition.id, 'After the edit');

    expect(titleOf.now(api.context.db, { id: petition.id })).toBeNull();
    let read: string | undefined;
    const reading = titleOf(api.context.db, { id: petition.id }).then((result) => (read = result.rows[0]?.title));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).toBeUndefined();

    release();
    await expect(transaction).rejects.toThrow('roll back');
    await reading;
    expect(read).toBe('Before the edit');
  });

  it('a signature made while another transaction is open survives that transaction rolling back', async () => {
    api = await startTestApi();
    const petition = await insertPetition(api.context.db);
    const cookie = await api.signInAs('citizen');
    // Warms the maintenance flag's cache, so nothing but the signing itself could wait for the transaction.
    expect((await api.request({ url: `/api/petitions/${petition.id}/count`, cookie })).statusCode).toBe(200);
    const { transaction, release } = await holdRolledBackEdit(api.context.db, petition.id, 'Never saved');

    const signing = api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie, payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(transaction).rejects.toThrow('roll back');
    const response = await signing;
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ signatures: 1, signed: true });

    const rows = await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petition.id).execute();
    const stored = await api.context.db.selectFrom('petitions').select(['title', 'signature_count']).where('id', '=', petition.id).executeTakeFirstOrThrow();
    expect(rows).toHaveLength(1);
    expect(stored.signature_count).toBe(1);
    expect(stored.title).not.toBe('Never saved');
  });
});
