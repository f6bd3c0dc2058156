import { sql, type Kysely } from 'kysely';
import type { EngineMigration } from './migration.ts';

/**
 * The bands' bounds as they are now (docs/operations.md#signature-bands): 1 and 2, 8, the response and
 * debate thresholds (10 and 20) with 16 between them, then four bands per doubling from 32 (32, 40, 48,
 * 56, 64, 80, ...). Under 10, where every open petition is, a band move costs an index entry in each of
 * the lists' three band indexes (on PostgreSQL a new entry in every index of `petitions`, the update not
 * being heap-only), while what the lists need there is small bands at the two ends only: the first
 * pages of the fewest-signatures order read the petitions of none and one signature, those of the
 * most-signatures order of open petitions read 8 and 9. So 4 is no longer a bound (0022 had 1, 2, 4, 8):
 * 2 to 7 are one band, which only the deeper pages of those orders sort. The order stays exactly the
 * count's whatever the bounds, as a band only groups counts (a larger count never has a smaller band).
 */
export const SIGNATURE_BAND_BOUNDS: readonly number[] = [
  1, 2, 8, 10, 16, 20,
  ...Array.from({ length: 26 }, (_, i) => [4, 5, 6, 7].map((quarters) => (2 ** (i + 5) / 4) * quarters)).flat(),
];

/** How many of the bounds `count` (SQL) has reached, as SQLite's triggers compute it: smallest bound first. */
function sqliteBand(count: string) {
  const steps = SIGNATURE_BAND_BOUNDS.map((bound, index) => `WHEN ${count} < ${bound} THEN ${index}`).join(' ');
  return sql.raw(`(CASE ${steps} ELSE ${SIGNATURE_BAND_BOUNDS.length} END)`);
}

/**
 * Every petition's band moves to the new bounds, on both engines.
 *
 * PostgreSQL: a stored generated column's expression cannot be changed in place (before PostgreSQL 17),
 * so the column is dropped, which drops its three indexes, and added again, which rewrites the table
 * (packing every page to its fillfactor again, as 0022 did) under its exclusive lock: seconds per
 * hundred thousand petitions. Dropping the column drops its statistics, so a table with petitions is analysed
 * at once: the lists' plans read the band's.
 *
 * SQLite: the band is a plain column kept by the triggers of 0024, which are written again with the new
 * bounds; the petitions whose band moves are rewritten once.
 */
export const bandBoundsMigration: EngineMigration = {
  sqlite: {
    async up(db: Kysely<unknown>) {
      await db.transaction().execute(async (trx) => {
        await sql`DROP TRIGGER petitions_band_insert`.execute(trx);
        await sql`DROP TRIGGER petitions_band_update`.execute(trx);
        await sql`UPDATE petitions SET signature_band = ${sqliteBand('signature_count')} WHERE signature_band <> ${sqliteBand('signature_count')}`.execute(trx);
        // As 0024's: written only when the band moves, so a count change inside a band updates no index of the lists.
        await sql`CREATE TRIGGER petitions_band_insert AFTER INSERT ON petitions
          WHEN NEW.signature_band <> ${sqliteBand('NEW.signature_count')}
          BEGIN UPDATE petitions SET signature_band = ${sqliteBand('NEW.signature_count')} WHERE id = NEW.id; END`.execute(trx);
        await sql`CREATE TRIGGER petitions_band_update AFTER UPDATE OF signature_count ON petitions
          WHEN NEW.signature_band <> ${sqliteBand('NEW.signature_count')}
          BEGIN UPDATE petitions SET signature_band = ${sqliteBand('NEW.signature_count')} WHERE id = NEW.id; END`.execute(trx);
      });
    },
  },
  postgres: {
    // Kysely runs PostgreSQL's migrations in a transaction of their own (transactional DDL).
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE petitions DROP COLUMN signature_band`.execute(db);
      await sql
        .raw(
          `ALTER TABLE petitions ADD COLUMN signature_band smallint NOT NULL
            GENERATED ALWAYS AS (width_bucket(signature_count, ARRAY[${SIGNATURE_BAND_BOUNDS.join(', ')}]::int[])) STORED`,
        )
        .execute(db);
      await sql`CREATE INDEX petitions_signature_band ON petitions (signature_band, id)`.execute(db);
      await sql`CREATE INDEX petitions_status_band ON petitions (status, signature_band)`.execute(db);
      await sql`CREATE INDEX petitions_term_band ON petitions (term_id, signature_band)`.execute(db);
      // An empty table (a new database) is left unanalysed, as it was: statistics saying "empty" would steer the
      // first plans away from the band indexes until autovacuum's first analysis.
      const { rows } = await sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM petitions) AS found`.execute(db);
      if (rows[0]?.found) await sql`ANALYZE petitions`.execute(db);
    },
  },
};
