/**
 * Migrations 0022 (PostgreSQL) and 0024 (SQLite), signature bands, and the count orders on the engine
 * under test (docs/operations.md#signature-bands). A database written before them migrates: every
 * petition gets its band and the count indexes become band indexes; on PostgreSQL the table gets its
 * fillfactor, on SQLite triggers keep the band for every writer. The lists sorted by signatures are
 * exactly the count order, page after page and on each filter, also after counts change inside a band
 * (where the index does not see them) and across bands; on PostgreSQL a count change inside a band is
 * a HOT update, on SQLite it leaves the band column (and so the band indexes) alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { SortOption } from '../../src-shared/domain/constants.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { PETITIONS_FILLFACTOR } from '../../src-server/db/migrations/0022_signature_bands.ts';
import type { Database } from '../../src-server/db/schema.ts';
import { listPetitionRows, type PetitionFilters } from '../../src-server/petitions/petition-queries.ts';
import { signatureBand } from '../../src-server/petitions/signature-band.ts';
import { testDatabaseAt } from '../support/database-at.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.ts';

const BEFORE = '0021_signer_retention';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-bands-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const oldDatabase = (url: string) => testDatabaseAt(url, BEFORE);

const CREATED = '2026-02-01T09:00:00.000Z';
/** Counts on both sides of band bounds, many inside one band (40-47), ties, none and a large one. */
const COUNTS = [0, 0, 1, 2, 3, 3, 4, 7, 8, 9, 10, 15, 16, 19, 20, 31, 32, 39, 40, 41, 41, 42, 44, 45, 46, 47, 47, 48, 63, 64, 100, 1_000, 123_456];

/** The band as the server computes it (signature-band.ts), checked here against each engine's own. */
const bandOf = signatureBand;

describe(`migrations 0022 and 0024 (signature bands) on ${TEST_ENGINE}`, () => {
  it('migrates an existing database; the count orders stay exact, inside a band and across bands, on every page and filter', async () => {
    const testDatabase = await createTestDatabase(dir, 'bands.db');
    try {
      const old = await oldDatabase(testDatabase.url);
      for (const [index, count] of COUNTS.entries()) {
        await sql`INSERT INTO petitions (title, description, creator_name, creator_id, tags, category, term_id, status,
            closure_reason, closed_at, signature_count, government_response, government_response_meta, debate_info, debate_info_meta, version, created_at, updated_at)
          VALUES (${`Petition ${index}`}, 'Written before migration 0022.', 'Old Creator', NULL, '[]', 'General', NULL, ${index % 3 === 0 ? 'closed' : 'open'},
            NULL, NULL, ${count}, NULL, NULL, NULL, NULL, 1, ${CREATED}, ${CREATED})`.execute(old);
      }
      await old.destroy();

      const database = await openDatabase(testDatabase.url);
      try {
        const db = database.db as Kysely<Database>;
        const dialect = database.dialect;
        /** Every petition's stored band is its count's. */
        const checkBands = async (rows = COUNTS.length) => {
          const bands = await sql<{ signature_count: number; signature_band: number }>`SELECT signature_count, signature_band FROM petitions`.execute(db);
          expect(bands.rows.length).toBe(rows);
          for (const row of bands.rows) expect(row.signature_band).toBe(bandOf(row.signature_count));
        };
        await checkBands();
        const indexes =
          dialect === 'postgres'
            ? await sql<{ name: string; definition: string }>`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'petitions'`.execute(db)
            : await sql<{ name: string; definition: string }>`SELECT name, coalesce(sql, '') AS definition FROM sqlite_master WHERE type = 'index' AND tbl_name = 'petitions'`.execute(db);
        const names = indexes.rows.map((row) => row.name);
        expect(names).toEqual(expect.arrayContaining(['petitions_signature_band', 'petitions_status_band', 'petitions_term_band']));
        for (const gone of ['petitions_signatures', 'petitions_status', 'petitions_term']) expect(names).not.toContain(gone);
        // No index of petitions names the count any more, so a count change alone touches none.
        expect(indexes.rows.filter((row) => row.definition.includes('signature_count')).map((row) => row.name)).toEqual([]);
        if (dialect === 'postgres') {
          const options = await sql<{ reloptions: string[] }>`SELECT reloptions FROM pg_class WHERE relname = 'petitions'`.execute(db);
          expect(options.rows[0]!.reloptions).toContain(`fillfactor=${PETITIONS_FILLFACTOR}`);
        }

        /** Every page of a sort, joined, against the rows sorted in JavaScript by (count, id). */
        const checkOrders = async (filters: PetitionFilters, matches: (row: { status: string }) => boolean) => {
          const all = (await db.selectFrom('petitions').select(['id', 'signature_count', 'status']).execute()).filter(matches);
          const expected: Record<'most_signatures' | 'fewest_signatures', number[]> = {
            most_signatures: [...all].sort((a, b) => b.signature_count - a.signature_count || b.id - a.id).map((row) => row.id),
            fewest_signatures: [...all].sort((a, b) => a.signature_count - b.signature_count || a.id - b.id).map((row) => row.id),
          };
          for (const sort of ['most_signatures', 'fewest_signatures'] as const satisfies SortOption[]) {
            const paged: number[] = [];
            for (let page = 1; page <= Math.ceil(all.length / 4) + 1; page++) {
              paged.push(...(await listPetitionRows(db, dialect, filters, sort, { page, pageSize: 4 })).map((row) => row.id));
            }
            expect(paged).toEqual(expected[sort]);
          }
        };
        const checkAll = async () => {
          await checkOrders({}, () => true);
          await checkOrders({ status: 'open' }, (row) => row.status !== 'closed');
          await checkOrders({ status: 'closed' }, (row) => row.status === 'closed');
        };
        await checkAll();

        // Inside band 40-47: reverse the order of its petitions (the band index sees no change).
        const inBand = await db.selectFrom('petitions').select(['id', 'signature_count']).where('signature_count', '>=', 40).where('signature_count', '<=', 47).orderBy('id').execute();
        expect(inBand.length).toBeGreaterThan(5);
        for (const [index, row] of inBand.entries()) {
          await db.updateTable('petitions').set({ signature_count: 47 - (index % 8) }).where('id', '=', row.id).execute();
        }
        await checkAll();
        // Across bands: the smallest becomes the largest and the largest the smallest.
        const ordered = await db.selectFrom('petitions').select(['id', 'signature_count']).orderBy('signature_count').orderBy('id').execute();
        await db.updateTable('petitions').set({ signature_count: 200_000 }).where('id', '=', ordered[0]!.id).execute();
        await db.updateTable('petitions').set({ signature_count: 0 }).where('id', '=', ordered.at(-1)!.id).execute();
        await checkAll();
        await checkBands();
        // A petition written with its count, as imports and fixtures write them, gets its band too.
        await sql`INSERT INTO petitions (title, description, creator_name, creator_id, tags, category, term_id, status,
            closure_reason, closed_at, signature_count, government_response, government_response_meta, debate_info, debate_info_meta, version, created_at, updated_at)
          VALUES ('Imported', 'Written with its count.', 'Importer', NULL, '[]', 'General', NULL, 'open',
            NULL, NULL, 5000, NULL, NULL, NULL, NULL, 1, ${CREATED}, ${CREATED})`.execute(db);
        await checkBands(COUNTS.length + 1);
        await checkAll();

        if (dialect === 'sqlite') {
          // A count change inside a band leaves the band column alone: the band indexes see no write.
          const within = inBand[0]!.id;
          const changes = async (count: number) => {
            await db.updateTable('petitions').set({ signature_count: count }).where('id', '=', within).execute();
            return (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]!.n;
          };
          const start = (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]!.n;
          const afterWithin = await changes(43);
          const afterCrossing = await changes(1_000_000);
          // total_changes counts trigger writes too: one row inside the band, two (the band's own write) across.
          expect({ within: afterWithin - start, crossing: afterCrossing - afterWithin }).toEqual({ within: 1, crossing: 2 });
          await checkBands(COUNTS.length + 1);
        }

        if (dialect === 'postgres') {
          // A count change inside a band is heap-only; one that crosses a bound is not (the band is indexed).
          const within = inBand[0]!.id;
          // The updates above left dead versions on the test's two pages; clear them, as pruning and autovacuum do.
          await sql`VACUUM petitions`.execute(db);
          const hot = await db.transaction().execute(async (trx) => {
            const read = async () =>
              (await sql<{ upd: number; hot: number }>`SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_xact_user_tables WHERE relname = 'petitions'`.execute(trx)).rows[0]!;
            const start = await read();
            await trx.updateTable('petitions').set({ signature_count: 43 }).where('id', '=', within).execute();
            const afterWithin = await read();
            await trx.updateTable('petitions').set({ signature_count: 1_000_000 }).where('id', '=', within).execute();
            const afterCrossing = await read();
            return { within: afterWithin.hot - start.hot, withinUpdates: afterWithin.upd - start.upd, crossing: afterCrossing.hot - afterWithin.hot };
          });
          expect(hot).toEqual({ within: 1, withinUpdates: 1, crossing: 0 });
          const band = await sql<{ signature_band: number }>`SELECT signature_band FROM petitions WHERE id = ${within}`.execute(db);
          expect(band.rows[0]!.signature_band).toBe(bandOf(1_000_000));
          await checkAll();
        }
      } finally {
        await database.close();
      }
    } finally {
      await testDatabase.drop();
    }
  });
});
