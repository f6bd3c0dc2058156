import { sql, type Kysely } from 'kysely';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * PostgreSQL: a petition's first signers are no longer stored in its row; they are read from the
 * signatures when the petition is read (`petition_first_signers`, 0010's function, through
 * petitions/petition-reads.ts), and each node's petition cache keeps them with the row
 * (docs/operations.md#first-signers-read-not-stored-migration-0027-measured-on-2026-12-07). The
 * column was more than half of the row, and nearly every signature on an open petition rewrote it:
 * the signing batch parsed, appended and sent it back, and a wider row leaves less room on its page
 * for the next version of itself (updates that are not heap-only write an entry in every index of
 * petitions). So the insert and delete triggers of 0005/0006/0010 go with it. Dropping a column does
 * not rewrite the table: rows written before keep the bytes until their next update (most of them on
 * their next signature).
 * SQLite: unchanged. Its signatures table is the signer list itself (0025), its row triggers touch
 * only the listed rows, and its petition page reads the stored list with the row, which the
 * benchmark's detail target is measured against.
 */
export const firstSignersReadMigration: EngineMigration = {
  sqlite: unchanged,
  postgres: {
    async up(db: Kysely<unknown>) {
      await sql`DROP TRIGGER signatures_first_signers_insert ON signatures`.execute(db);
      await sql`DROP TRIGGER signatures_first_signers_delete ON signatures`.execute(db);
      await sql`DROP FUNCTION signatures_first_signers_insert()`.execute(db);
      await sql`DROP FUNCTION signatures_first_signers_delete()`.execute(db);
      await sql`ALTER TABLE petitions DROP COLUMN first_signers`.execute(db);
    },
  },
};
