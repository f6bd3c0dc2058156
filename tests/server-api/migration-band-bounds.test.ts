/**
 * Migration 0026 (the bands' bounds, docs/operations.md#signature-bands) on the engine under test. A
 * database with 0022's bands migrates: every petition's band is the new bounds' (2 to 7 one band), the
 * band indexes are there again, the lists sorted by signatures stay exactly the count order, and a count
 * that crosses a bound 0022 had and 0026 has not (3 to 4) no longer touches the band indexes: a HOT
 * update on PostgreSQL, no band write on SQLite. One that crosses a bound both have (7 to 8) still does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/database.ts';
import { PETITIONS_FILLFACTOR, SIGNATURE_BAND_BOUNDS_0022 as BOUNDS_0022 } from '../../src-server/db/migrations/0022_signature_bands.ts';
import type { Database } from '../../src-server/db/schema.ts';
import { listPetitionRows } from '../../src-server/petitions/petition-queries.ts';
import { signatureBand } from '../../src-server/petitions/signature-band.ts';
import { testDatabaseAt } from '../support/database-at.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.ts';

const BEFORE = '0025_signatures_by_time';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-band-bounds-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const CREATED = '2026-02-01T09:00:00.000Z';
const COUNTS = [0, 1, 2, 3, 3, 4, 5, 6, 7, 7, 8, 9, 10, 15, 16, 19, 20, 31, 32, 40, 47, 48, 1_000];

/** 0022's band, as the database held it before 0026. */
const oldBand = (count: number) => BOUNDS_0022.filter((bound) => bound <= count).length;

describe(`migration 0026 (band bounds) on ${TEST_ENGINE}`, () => {
  it('moves every band to the new bounds; the orders stay exact; 3 to 4 no longer moves a band, 7 to 8 still does', async () => {
    // The two bounds' lists differ where this test says they do.
    expect([oldBand(3) === oldBand(4), signatureBand(3) === signatureBand(4)]).toEqual([false, true]);
    expect(new Set([2, 3, 4, 5, 6, 7].map(signatureBand)).size).toBe(1);
    expect([signatureBand(1) < signatureBand(2), signatureBand(7) < signatureBand(8), signatureBand(9) < signatureBand(10)]).toEqual([true, true, true]);

    const testDatabase = await createTestDatabase(dir, 'band-bounds.db');
    try {
      const old = await testDatabaseAt(testDatabase.url, BEFORE);
      for (const [index, count] of COUNTS.entries()) {
        await sql`INSERT INTO petitions (title, description, creator_name, creator_id, tags, category, term_id, status,
            closure_reason, closed_at, signature_count, government_response, government_response_meta, debate_info, debate_info_meta, version, created_at, updated_at)
          VALUES (${`Petition ${index}`}, 'Written before migration 0026.', 'Old Creator', NULL, '[]', 'General', NULL, ${index % 4 === 0 ? 'closed' : 'open'},
            NULL, NULL, ${count}, NULL, NULL, NULL, NULL, 1, ${CREATED}, ${CREATED})`.execute(old);
      }
      const before = await sql<{ signature_count: number; signature_band: number }>`SELECT signature_count, signature_band FROM petitions`.execute(old);
      for (const row of before.rows) expect(row.signature_band).toBe(oldBand(row.signature_count));
      await old.destroy();

      const database = await openDatabase(testDatabase.url);
      try {
        const db = database.db as Kysely<Database>;
        const dialect = database.dialect;
        const bands = async () => (await sql<{ id: number; signature_count: number; signature_band: number }>`SELECT id, signature_count, signature_band FROM petitions`.execute(db)).rows;
        const migrated = await bands();
        expect(migrated.length).toBe(COUNTS.length);
        for (const row of migrated) expect(row.signature_band).toBe(signatureBand(row.signature_count));

        const indexes =
          dialect === 'postgres'
            ? await sql<{ name: string; definition: string }>`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'petitions'`.execute(db)
            : await sql<{ name: string; definition: string }>`SELECT name, coalesce(sql, '') AS definition FROM sqlite_master WHERE type = 'index' AND tbl_name = 'petitions'`.execute(db);
        expect(indexes.rows.map((row) => row.name)).toEqual(expect.arrayContaining(['petitions_signature_band', 'petitions_status_band', 'petitions_term_band']));
        expect(indexes.rows.filter((row) => row.definition.includes('signature_count')).map((row) => row.name)).toEqual([]);

        // Every page of both count orders, on every petition and on the open ones, against JavaScript's sort.
        const checkOrders = async () => {
          const all = await db.selectFrom('petitions').select(['id', 'signature_count', 'status']).execute();
          for (const [filters, rows] of [
            [{}, all],
            [{ status: 'open' as const }, all.filter((row) => row.status !== 'closed')],
          ] as const) {
            const most = [...rows].sort((a, b) => b.signature_count - a.signature_count || b.id - a.id).map((row) => row.id);
            for (const [sort, expected] of [
              ['most_signatures', most],
              ['fewest_signatures', [...rows].sort((a, b) => a.signature_count - b.signature_count || a.id - b.id).map((row) => row.id)],
            ] as const) {
              const paged: number[] = [];
              for (let page = 1; page <= Math.ceil(rows.length / 3) + 1; page++) {
                paged.push(...(await listPetitionRows(db, dialect, filters, sort, { page, pageSize: 3 })).map((row) => row.id));
              }
              expect(paged).toEqual(expected);
            }
          }
        };
        await checkOrders();

        const id = (count: number) => migrated.find((row) => row.signature_count === count)!.id;
        if (dialect === 'postgres') {
          const options = await sql<{ reloptions: string[] }>`SELECT reloptions FROM pg_class WHERE relname = 'petitions'`.execute(db);
          expect(options.rows[0]!.reloptions).toContain(`fillfactor=${PETITIONS_FILLFACTOR}`);
          // Analysed with the migration: the planner knows the new column.
          const analysed = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'petitions' AND attname = 'signature_band'`.execute(db);
          expect(analysed.rows[0]!.n).toBe(1);
          const hotness = await db.transaction().execute(async (trx) => {
            const hot = async () => (await sql<{ hot: number }>`SELECT n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relname = 'petitions'`.execute(trx)).rows[0]!.hot;
            const start = await hot();
            await trx.updateTable('petitions').set({ signature_count: 4 }).where('id', '=', id(5)).execute();
            await trx.updateTable('petitions').set({ signature_count: 5 }).where('id', '=', id(5)).execute();
            const inside = (await hot()) - start;
            await trx.updateTable('petitions').set({ signature_count: 8 }).where('id', '=', id(6)).execute();
            return { inside, crossing: (await hot()) - start - inside };
          });
          expect(hotness).toEqual({ inside: 2, crossing: 0 });
        } else {
          // total_changes counts the band trigger's own write: one row inside a band, two across a bound.
          const changes = async (petition: number, count: number) => {
            const start = (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]!.n;
            await db.updateTable('petitions').set({ signature_count: count }).where('id', '=', petition).execute();
            return (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]!.n - start;
          };
          expect({ inside: await changes(id(5), 4), crossing: await changes(id(6), 8) }).toEqual({ inside: 1, crossing: 2 });
        }
        for (const row of await bands()) expect(row.signature_band).toBe(signatureBand(row.signature_count));
        await checkOrders();
      } finally {
        await database.close();
      }
    } finally {
      await testDatabase.drop();
    }
  });
});
