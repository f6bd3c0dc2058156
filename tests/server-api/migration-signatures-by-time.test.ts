/**
 * Migration 0025 (the signatures table in two trees, docs/operations.md#the-signatures-table) on the
 * engine under test. A database at 0023 holding signatures (a member with two, a petition with more
 * signers than its stored first signers hold) comes out with the same rows and the same stored first
 * signers; the first-signers triggers still keep them on insert and delete; a member's second
 * signature is still refused and a deleted petition still takes its signatures. On SQLite the table
 * is keyed (petition, signed_at, user) with the unique (user, petition) index and the time index, and
 * its triggers are exactly the ones it had; PostgreSQL is unchanged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { SIGNERS_PREVIEW_COUNT } from '../../src-shared/domain/constants.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import type { Database } from '../../src-server/db/schema.ts';
import { testDatabaseAt } from '../support/database-at.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';
import { findPetitionPage } from '../../src-server/petitions/petition-reads.ts';

const BEFORE = '0023_session_change_notices';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-sigtable-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Signed both petitions (addSignatures numbers its signers from 500001). */
const MEMBER = '500001';

const everySignature = (db: Kysely<Database>) => db.selectFrom('signatures').selectAll().orderBy('petition_id').orderBy('user_id').execute();
const firstSigners = async (db: Kysely<Database>, id: number) => (await findPetitionPage(db, id))!.first_signers;
const listedIds = async (db: Kysely<Database>, id: number) => (JSON.parse(await firstSigners(db, id)) as { id: string }[]).map((signer) => signer.id);

/** SQLite: the table's definition, its indexes and its triggers as sqlite_master holds them. */
async function sqliteLayout(db: Kysely<Database>) {
  const rows = await sql<{ type: string; name: string; sql: string | null }>`SELECT type, name, sql FROM sqlite_master
    WHERE tbl_name = 'signatures' ORDER BY type, name`.execute(db);
  return {
    table: rows.rows.find((row) => row.type === 'table')!.sql!,
    indexes: rows.rows.filter((row) => row.type === 'index').map((row) => ({ name: row.name, sql: row.sql })),
    triggers: rows.rows.filter((row) => row.type === 'trigger').map((row) => ({ name: row.name, sql: row.sql })),
  };
}

describe(`migration 0025 (signatures by time) on ${TEST_ENGINE}`, () => {
  it('keeps every signature, the stored first signers, their triggers, the refusal of a second signature and the cascade', async () => {
    const testDatabase = await createTestDatabase(dir, 'sigtable.db');
    try {
      const old = (await testDatabaseAt(testDatabase.url, BEFORE)) as Kysely<Database>;
      const many = (await insertPetition(old)).id;
      // Signed out of key order, so the first signers are the oldest, not the lowest user ids.
      await addSignatures(old, many, SIGNERS_PREVIEW_COUNT + 4, { signedAt: (i) => new Date(Date.UTC(2026, 0, 1, 0, 0, 59 - i)).toISOString() });
      const few = (await insertPetition(old)).id;
      await addSignatures(old, few, 3, { signedAt: (i) => new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString() });
      const rowsBefore = await everySignature(old);
      const listedBefore = { many: await firstSigners(old, many), few: await firstSigners(old, few) };
      expect(rowsBefore.filter((row) => row.user_id === MEMBER).map((row) => row.petition_id)).toEqual([many, few]);
      expect((JSON.parse(listedBefore.many) as unknown[]).length).toBe(SIGNERS_PREVIEW_COUNT);
      expect(await listedIds(old, many)).toEqual(['500014', '500013', '500012', '500011', '500010', '500009', '500008', '500007', '500006', '500005']);
      const layoutBefore = TEST_ENGINE === 'sqlite' ? await sqliteLayout(old) : null;
      await old.destroy();

      const database = await openDatabase(testDatabase.url);
      try {
        const db = database.db;
        expect(await everySignature(db)).toEqual(rowsBefore);
        expect({ many: await firstSigners(db, many), few: await firstSigners(db, few) }).toEqual(listedBefore);

        if (database.dialect === 'sqlite') {
          const layout = await sqliteLayout(db);
          expect(layout.table).toMatch(/primary key \("petition_id", "signed_at", "user_id"\)\) without rowid$/i);
          expect(layout.indexes).toEqual([
            { name: 'signatures_by_signed_at', sql: 'CREATE INDEX "signatures_by_signed_at" on "signatures" ("signed_at")' },
            { name: 'signatures_by_user', sql: 'CREATE UNIQUE INDEX "signatures_by_user" on "signatures" ("user_id", "petition_id")' },
          ]);
          expect(layout.triggers.map((trigger) => trigger.name)).toEqual(['signatures_first_signers_delete', 'signatures_first_signers_insert']);
          expect(layout.triggers).toEqual(layoutBefore!.triggers);
          expect((await sql`PRAGMA foreign_key_check`.execute(db)).rows).toEqual([]);
        }

        // The triggers: an older signature joins the full list at its place and leaves it again when removed;
        // a newer one is appended to a list with room.
        await db.insertInto('signatures').values({ petition_id: many, user_id: '600001', username: 'early', display_name: 'Early', signed_at: '2025-12-31T00:00:00.000Z' }).execute();
        expect(await listedIds(db, many)).toEqual(['600001', '500014', '500013', '500012', '500011', '500010', '500009', '500008', '500007', '500006']);
        await db.deleteFrom('signatures').where('petition_id', '=', many).where('user_id', '=', '600001').execute();
        expect(await firstSigners(db, many)).toBe(listedBefore.many);
        await db.insertInto('signatures').values({ petition_id: few, user_id: '600002', username: 'late', display_name: 'Late', signed_at: '2026-03-01T00:00:00.000Z' }).execute();
        expect(await listedIds(db, few)).toEqual(['500001', '500002', '500003', '600002']);
        // Removing a listed signer takes it off the list.
        await db.deleteFrom('signatures').where('petition_id', '=', few).where('user_id', '=', MEMBER).execute();
        expect(await listedIds(db, few)).toEqual(['500002', '500003', '600002']);

        // A second signature by one member on one petition, even at another time, is refused.
        await expect(
          db.insertInto('signatures').values({ petition_id: many, user_id: MEMBER, username: 'again', display_name: 'Again', signed_at: '2026-05-01T00:00:00.000Z' }).execute(),
        ).rejects.toThrow(/unique|duplicate/i);

        // A deleted petition takes its signatures with it, and only its own.
        await db.deleteFrom('petitions').where('id', '=', few).execute();
        const left = await everySignature(db);
        expect(left.some((row) => row.petition_id === few)).toBe(false);
        expect(left).toEqual(rowsBefore.filter((row) => row.petition_id === many));
      } finally {
        await database.close();
      }
    } finally {
      await testDatabase.drop();
    }
  });
});
