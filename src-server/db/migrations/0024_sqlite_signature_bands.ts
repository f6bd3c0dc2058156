import { sql, type Kysely } from 'kysely';
import { SIGNATURE_BAND_BOUNDS_0022 } from './0022_signature_bands.ts';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * SQLite: the lists' indexes hold the band of the count, as PostgreSQL's do since 0022
 * (docs/operations.md#signature-bands). Writing a count into three indexes costs SQLite pages, not
 * row versions: each count written behind dirtied the petition's leaf in each of the three indexes,
 * and every dirty page is written to the log, copied back by the checkpoint and synced. A band changes
 * only when a count crosses a bound, so most count writes now dirty the row's page alone.
 *
 * SQLite cannot add a stored generated column, and an index on a virtual one still recomputes and
 * seeks its entry on every count write; so `signature_band` is a plain column that two triggers keep,
 * for every writer of counts (signing, the counts written behind, staff moves, fixtures). The band is
 * 0022's: how many of SIGNATURE_BAND_BOUNDS_0022 the count has reached (0026 moved the bounds since).
 *
 * PostgreSQL: unchanged (0022 did it there).
 */
export const sqliteSignatureBandsMigration: EngineMigration = {
  sqlite: {
    async up(db: Kysely<unknown>) {
      await db.transaction().execute(async (trx) => {
        const band = (count: string) => sql.raw(bandOf(count));
        await sql`ALTER TABLE petitions ADD COLUMN signature_band integer NOT NULL DEFAULT 0`.execute(trx);
        await sql`UPDATE petitions SET signature_band = ${band('signature_count')}`.execute(trx);
        // Written only when the band moves, so a count change inside a band updates no index of the lists.
        await sql`CREATE TRIGGER petitions_band_insert AFTER INSERT ON petitions
          WHEN NEW.signature_band <> ${band('NEW.signature_count')}
          BEGIN UPDATE petitions SET signature_band = ${band('NEW.signature_count')} WHERE id = NEW.id; END`.execute(trx);
        await sql`CREATE TRIGGER petitions_band_update AFTER UPDATE OF signature_count ON petitions
          WHEN NEW.signature_band <> ${band('NEW.signature_count')}
          BEGIN UPDATE petitions SET signature_band = ${band('NEW.signature_count')} WHERE id = NEW.id; END`.execute(trx);
        await sql`CREATE INDEX petitions_signature_band ON petitions (signature_band, id)`.execute(trx);
        await sql`CREATE INDEX petitions_status_band ON petitions (status, signature_band)`.execute(trx);
        await sql`CREATE INDEX petitions_term_band ON petitions (term_id, signature_band)`.execute(trx);
        await sql`DROP INDEX petitions_signatures`.execute(trx);
        await sql`DROP INDEX petitions_status`.execute(trx);
        await sql`DROP INDEX petitions_term`.execute(trx);
      });
    },
  },
  postgres: unchanged,
};

/**
 * The band of `count` (a column or NEW.column) in SQL: PostgreSQL's width_bucket over the bounds, as
 * comparisons from the smallest bound up, so the common small counts are decided in a few steps.
 */
function bandOf(count: string): string {
  const steps = SIGNATURE_BAND_BOUNDS_0022.map((bound, index) => `WHEN ${count} < ${bound} THEN ${index}`).join(' ');
  return `(CASE ${steps} ELSE ${SIGNATURE_BAND_BOUNDS_0022.length} END)`;
}
