/**
 * Migration 0020 on the engine under test: petitions already in a database get their threshold
 * times from their 10th and 20th signature (oldest first), or their creation when a queue holds
 * them without that many signature rows; petitions under both thresholds get none. Afterwards the
 * trigger records the next crossing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/database.ts';
import { testDatabaseAt } from '../support/database-at.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.ts';

const BEFORE = '0011_chat_messages';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-migration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const oldDatabase = (url: string) => testDatabaseAt(url, BEFORE);

const CREATED = '2026-02-01T09:00:00.000Z';
const minute = (n: number) => new Date(Date.parse(CREATED) + n * 60_000).toISOString();

/** A petition as an older release wrote it, with `rows` signatures one minute apart (listed newest first, to prove the order is by time). */
async function oldPetition(db: Kysely<unknown>, title: string, status: string, count: number, rows: number): Promise<number> {
  const inserted = await sql<{ id: number }>`INSERT INTO petitions (title, description, creator_name, creator_id, tags, category, term_id, status,
      closure_reason, closed_at, signature_count, government_response, government_response_meta, debate_info, debate_info_meta, version, created_at, updated_at)
    VALUES (${title}, 'A petition from before migration 0020.', 'Old Creator', NULL, '["Budget"]', 'General', NULL, ${status},
      NULL, NULL, ${count}, NULL, NULL, NULL, NULL, 1, ${CREATED}, ${CREATED}) RETURNING id`.execute(db);
  const id = inserted.rows[0]!.id;
  for (let n = rows; n >= 1; n--) {
    await sql`INSERT INTO signatures (petition_id, user_id, username, display_name, signed_at)
      VALUES (${id}, ${String(500_000 + n)}, ${`old${n}`}, ${`Old ${n}`}, ${minute(n)})`.execute(db);
  }
  return id;
}

describe(`migration 0020 (queue ageing) on ${TEST_ENGINE}`, () => {
  it('backfills threshold times from the signatures, falls back to creation, and records later crossings', async () => {
    const testDatabase = await createTestDatabase(dir, 'old.db');
    try {
      const old = await oldDatabase(testDatabase.url);
      const ids = {
        responseQueue: await oldPetition(old, 'Twelve signatures', 'awaiting_government_response', 12, 12),
        debateQueue: await oldPetition(old, 'Twenty-two signatures', 'awaiting_debate_in_parliament', 22, 22),
        putInQueue: await oldPetition(old, 'Queued by hand', 'awaiting_government_response', 3, 3),
        seededCount: await oldPetition(old, 'Counted, few rows', 'awaiting_government_response', 15, 2),
        young: await oldPetition(old, 'Five signatures', 'open', 5, 5),
      };
      await old.destroy();

      const database = await openDatabase(testDatabase.url);
      try {
        const db = database.db;
        const times = async (id: number) =>
          db.selectFrom('petitions').select(['response_threshold_reached_at as response', 'debate_threshold_reached_at as debate']).where('id', '=', id).executeTakeFirstOrThrow();
        expect(await times(ids.responseQueue)).toEqual({ response: minute(10), debate: null });
        expect(await times(ids.debateQueue)).toEqual({ response: minute(10), debate: minute(20) });
        expect(await times(ids.putInQueue)).toEqual({ response: CREATED, debate: null });
        expect(await times(ids.seededCount)).toEqual({ response: CREATED, debate: null });
        expect(await times(ids.young)).toEqual({ response: null, debate: null });

        // The trigger now records the crossing of whatever writes the count.
        const before = Date.now();
        await db.updateTable('petitions').set({ signature_count: 10 }).where('id', '=', ids.young).execute();
        const crossed = await times(ids.young);
        expect(crossed.debate).toBeNull();
        expect(Date.parse(crossed.response!)).toBeGreaterThanOrEqual(before - 1_000);
        expect(Date.parse(crossed.response!)).toBeLessThanOrEqual(Date.now() + 1_000);
        // A later crossing of the same threshold leaves the first time alone.
        await db.updateTable('petitions').set({ signature_count: 9 }).where('id', '=', ids.responseQueue).execute();
        await db.updateTable('petitions').set({ signature_count: 11 }).where('id', '=', ids.responseQueue).execute();
        expect((await times(ids.responseQueue)).response).toBe(minute(10));
      } finally {
        await database.close();
      }
    } finally {
      await testDatabase.drop();
    }
  });
});
