/**
 * Migration 0027 (docs/operations.md#first-signers-read-not-stored-migration-0027-measured-on-2026-12-07)
 * on the engine under test. A database at 0026 whose petitions have signers migrates; the petition
 * page's row then lists the same first ten signers, oldest first, in the API's shape. On PostgreSQL
 * the column and the triggers that kept it are gone (the list is read from the signatures), and a
 * count-only update of a petition with room on its page stays heap-only; on SQLite the stored column
 * and its triggers are as they were.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/database.ts';
import type { Database } from '../../src-server/db/schema.ts';
import { findPetitionPage } from '../../src-server/petitions/petition-reads.ts';
import { testDatabaseAt } from '../support/database-at.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';

const BEFORE = '0026_band_bounds';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-first-signers-read-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const listedIds = async (db: Kysely<Database>, id: number) => (JSON.parse((await findPetitionPage(db, id))!.first_signers) as { id: string }[]).map((signer) => signer.id);

describe(`migration 0027 (first signers read, not stored) on ${TEST_ENGINE}`, () => {
  it('keeps every petition page listing its first ten signers; PostgreSQL no longer stores them', async () => {
    const testDatabase = await createTestDatabase(dir, 'first-signers-read.db');
    try {
      const old = (await testDatabaseAt(testDatabase.url, BEFORE)) as Kysely<Database>;
      const crowded = await insertPetition(old);
      const few = await insertPetition(old);
      const empty = await insertPetition(old);
      await addSignatures(old, crowded.id, 12, { signedAt: (i) => new Date(Date.UTC(2026, 0, 1, 0, 0, 59 - i)).toISOString() });
      await addSignatures(old, few.id, 3, { prefix: '6' });
      const before = { crowded: await listedIds(old, crowded.id), few: await listedIds(old, few.id) };
      // Newest first by user id, so the first ten by time are the last ten ids.
      expect(before.crowded).toEqual(Array.from({ length: 10 }, (_, i) => `5${String(12 - i).padStart(5, '0')}`));
      await old.destroy();

      const database = await openDatabase(testDatabase.url);
      try {
        const db = database.db as Kysely<Database>;
        expect(await listedIds(db, crowded.id)).toEqual(before.crowded);
        expect(await listedIds(db, few.id)).toEqual(before.few);
        expect(await listedIds(db, empty.id)).toEqual([]);
        const shape = JSON.parse((await findPetitionPage(db, few.id))!.first_signers) as Record<string, string>[];
        expect(Object.keys(shape[0]!)).toEqual(['id', 'username', 'displayName', 'avatar', 'signed_at']);

        // An older signature goes to the front, as the signers endpoint orders them.
        await addSignatures(db, crowded.id, 1, { prefix: '7', signedAt: () => '2025-12-31T00:00:00.000Z' });
        expect((await listedIds(db, crowded.id))[0]).toBe('700001');

        if (database.dialect === 'postgres') {
          const columns = await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'petitions'`.execute(db);
          expect(columns.rows.map((row) => row.name)).not.toContain('first_signers');
          const triggers = await sql<{ name: string }>`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'signatures'::regclass AND NOT tgisinternal`.execute(db);
          expect(triggers.rows).toEqual([]);
          // A count change inside a band, with the page's room, is heap-only: no entry in any index of petitions.
          const hot = await db.transaction().execute(async (trx) => {
            const updates = async () => (await sql<{ hot: number }>`SELECT n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relname = 'petitions'`.execute(trx)).rows[0]!.hot;
            const start = await updates();
            await trx.updateTable('petitions').set({ signature_count: 4 }).where('id', '=', few.id).execute();
            return (await updates()) - start;
          });
          expect(hot).toBe(1);
        } else {
          const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('petitions')`.execute(db);
          expect(columns.rows.map((row) => row.name)).toContain('first_signers');
          const triggers = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'signatures' ORDER BY name`.execute(db);
          expect(triggers.rows.map((row) => row.name)).toEqual(['signatures_first_signers_delete', 'signatures_first_signers_insert']);
        }
      } finally {
        await database.close();
      }
    } finally {
      await testDatabase.drop();
    }
  });
});
