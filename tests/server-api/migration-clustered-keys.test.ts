/**
 * Migration 0004 rebuilds users, sessions and signatures as WITHOUT ROWID tables. A database
 * holding data at 0002 must come out with every row, working foreign keys and the new layout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/database.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import { databaseAt } from '../support/database-at.ts';
import { countRows } from '../support/fixtures.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-migration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('migration 0004 (clustered keys)', () => {
  it('keeps every row and every foreign key of a database at 0002', async () => {
    const file = path.join(dir, 'old.db');
    const old = await databaseAt(file, '0002_classification_indexes');
    const users = createUserRepository(old);
    for (const id of ['501', '502']) {
      await users.upsert({ id, username: `u${id}`, displayName: `User ${id}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
    }
    const sessions = createSessionService(old);
    const kept = await sessions.create('501');
    await sessions.create('502');
    const petition = await insertPetition(old);
    await addSignatures(old, petition.id, 25);
    await old.destroy();

    const database = await openDatabase(`sqlite:${file}`);
    const db = database.db;
    try {
      const count = (table: 'users' | 'sessions' | 'signatures') => countRows(db, table);
      expect([await count('users'), await count('sessions'), await count('signatures')]).toEqual([2, 2, 25]);
      expect((await createSessionService(db).resolve(kept.token))?.user.username).toBe('u501');

      const layout = new BetterSqlite3(file, { readonly: true });
      const ddl = (name: string) => (layout.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql;
      for (const table of ['users', 'sessions', 'signatures']) expect(ddl(table)).toMatch(/without rowid$/i);
      expect(layout.pragma('foreign_key_check')).toEqual([]);
      layout.close();

      // The cascades still hold: a deleted user takes its sessions, a deleted petition its signatures.
      await db.deleteFrom('users').where('id', '=', '502').execute();
      await db.deleteFrom('petitions').where('id', '=', petition.id).execute();
      expect([await count('users'), await count('sessions'), await count('signatures')]).toEqual([1, 1, 0]);
    } finally {
      await database.close();
    }
  });
});
