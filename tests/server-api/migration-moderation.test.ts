/**
 * Migration 0015 (community safety, docs/moderation.md) on the engine under test, on a database that
 * later migrations (0016 and up) reached first: the migrator applies it out of order (every
 * migration here stands alone), existing petitions come out visible with nothing else changed, and
 * the rejection reasons are seeded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Migrator } from 'kysely/migration';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, migrationsFor, pendingMigrations } from '../../src-server/db/migrations/index.ts';
import { createPostgresPool } from '../../src-server/db/postgres-database.ts';
import type { Database } from '../../src-server/db/schema.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.ts';

const SAFETY = '0015_moderation';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-migration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function connect(url: string): Kysely<Database> {
  if (TEST_ENGINE === 'sqlite') {
    const sqlite = new BetterSqlite3(url.replace(/^sqlite:/, ''));
    sqlite.pragma('foreign_keys = ON');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPostgresPool(url) }) });
}

describe(`migration ${SAFETY} on ${TEST_ENGINE}`, () => {
  it('applies after the later migrations, keeps every petition as it was and visible, and seeds the reasons', async () => {
    const testDatabase = await createTestDatabase(dir, 'unordered.db');
    const db = connect(testDatabase.url);
    try {
      // Everything but 0015, as a database upgraded by a server without it would be.
      const without = Object.fromEntries(Object.entries(migrationsFor(TEST_ENGINE)).filter(([name]) => name !== SAFETY));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => without } }).migrateToLatest();
      if (error) throw error;
      const stamp = '2026-02-01T10:00:00.000Z';
      const row = await db
        .insertInto('petitions')
        .values({
          title: 'A petition from before moderation',
          description: 'Written before the moderation columns existed, it must stay as it was.',
          creator_name: 'Old Creator',
          creator_id: '42',
          tags: '["Rights"]',
          category: 'General',
          term_id: null,
          status: 'awaiting_government_response',
          closure_reason: null,
          closed_at: null,
          signature_count: 12,
          government_response: null,
          government_response_meta: null,
          debate_info: null,
          debate_info_meta: null,
          version: 7,
          created_at: stamp,
          updated_at: stamp,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(await pendingMigrations(db, TEST_ENGINE)).toEqual([SAFETY]);

      expect(await migrateToLatest(db, TEST_ENGINE)).toEqual([SAFETY]);
      const after = await db.selectFrom('petitions').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(after).toMatchObject({ status: 'awaiting_government_response', signature_count: 12, version: 7, moderation_state: null, moderated_at: null });
      const reasons = await db.selectFrom('rejection_reasons').select(['code', 'hidden']).orderBy('position').execute();
      expect(reasons.map((r) => r.code)).toEqual(['duplicate', 'offensive', 'personal_information', 'not_government', 'unclear', 'advertising']);
      expect(reasons.filter((r) => r.hidden === 1).map((r) => r.code)).toEqual(['personal_information']);
      expect(await pendingMigrations(db, TEST_ENGINE)).toEqual([]);
    } finally {
      await db.destroy();
      await testDatabase.drop();
    }
  });
});
