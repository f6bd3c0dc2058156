import { sql, type Kysely } from 'kysely';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * Where the bands of `signature_band` begin (docs/operations.md#signature-bands): powers of two up to
 * 32, with the response and debate thresholds (10 and 20 when this was written) so no band straddles
 * them, then four bands per doubling (32, 40, 48, 56, 64, 80, ...): the few petitions with many
 * signatures are the first pages of the most-signed list, and smaller bands there mean less to sort
 * for them, while a popular petition still crosses a bound only every eighth of its count. A band is
 * the number of these a count has reached: 0 for no signatures, 1 for one, 2 for two or three, ...
 * The list is history like the rest of the migration (0026 moved the bounds since); the ordering stays
 * exact whatever the bounds are, because a band only groups counts (a larger count never has a smaller band).
 */
export const SIGNATURE_BAND_BOUNDS_0022: readonly number[] = [
  1, 2, 4, 8, 10, 16, 20,
  ...Array.from({ length: 26 }, (_, i) => [4, 5, 6, 7].map((quarters) => (2 ** (i + 5) / 4) * quarters)).flat(),
];

/**
 * Percent of each 8 KB page filled by inserts and rewrites: the rest is room for new versions (HOT).
 * A batch often updates several petitions of one page at once; 80 gave 29.5% HOT updates in the
 * benchmark's signing, 60 gave 54.5% (docs/operations.md#signature-bands).
 */
export const PETITIONS_FILLFACTOR = 60;

/**
 * PostgreSQL: the signing UPDATE becomes a heap-only (HOT) update on its common path. A count in an
 * index makes every count change a new index entry in each such index (three of them, about fourteen
 * WAL records per petition per batch). So the lists' indexes hold a coarse band of the count instead,
 * a stored generated column that changes only when a count crosses a band's bound (PostgreSQL then
 * compares the old and the new band and finds them equal: no indexed column changed). The lists sort
 * by (band, count, id): the band's index gives the bands in order and PostgreSQL sorts only within the
 * bands a page reaches (Incremental Sort), so the order is the exact count order
 * (petition-queries.ts: applySort).
 *
 * HOT also needs room for the new version on the row's own page: `fillfactor` keeps some free on
 * every page. Adding a stored generated column rewrites the table, and the rewrite fills the pages to
 * the fillfactor, so existing databases get the room too, with no VACUUM FULL of their own. The
 * rewrite holds the table's exclusive lock while it runs (seconds per hundred thousand petitions:
 * docs/operations.md#signature-bands).
 *
 * SQLite: unchanged. One process writes the file and counts are written behind
 * (petitions/signature-counts.ts), so it keeps its (signature_count, id) indexes and count orders.
 */
export const signatureBandsMigration: EngineMigration = {
  sqlite: unchanged,
  postgres: {
    async up(db: Kysely<unknown>) {
      await sql.raw(`ALTER TABLE petitions SET (fillfactor = ${PETITIONS_FILLFACTOR})`).execute(db);
      await sql
        .raw(
          `ALTER TABLE petitions ADD COLUMN signature_band smallint NOT NULL
            GENERATED ALWAYS AS (width_bucket(signature_count, ARRAY[${SIGNATURE_BAND_BOUNDS_0022.join(', ')}]::int[])) STORED`,
        )
        .execute(db);
      await sql`CREATE INDEX petitions_signature_band ON petitions (signature_band, id)`.execute(db);
      await sql`CREATE INDEX petitions_status_band ON petitions (status, signature_band)`.execute(db);
      await sql`CREATE INDEX petitions_term_band ON petitions (term_id, signature_band)`.execute(db);
      await sql`DROP INDEX petitions_signatures`.execute(db);
      await sql`DROP INDEX petitions_status`.execute(db);
      await sql`DROP INDEX petitions_term`.execute(db);
    },
  },
};
