import { sql, type Kysely } from 'kysely';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * SQLite: the signatures table in two b-trees instead of three (issue #24, docs/operations.md#the-signatures-table).
 * Signing's database work is mostly pages written, and a signature landed on a random page of each
 * of three b-trees (the (petition, user) key, the signer list's `signatures_by_time` and a member's
 * `signatures_by_user`), plus the time index's last page. The table's key is now the signer list's
 * order, (petition, signed_at, user), with the names in the row, so the list is the table itself;
 * `signatures_by_user` becomes UNIQUE (user, petition): it refuses a member's second signature, as the
 * old key did (SQLite matches ON CONFLICT (petition_id, user_id) to it by its columns), and gives a
 * member's signatures, its entries carrying the rest of the key (signed_at). `signatures_by_signed_at`
 * stays. The first-signers triggers (0006) go with the old table and are recreated from their own SQL,
 * so they are exactly what they were; first_signers is not recomputed (the rows are the same).
 *
 * PostgreSQL keeps its heap table and indexes; nothing to change there.
 */
export const signaturesByTimeMigration: EngineMigration = {
  sqlite: {
    async up(db: Kysely<unknown>) {
      // As in 0004: SQLite only switches foreign keys off outside a transaction, and dropping the
      // old table must not be taken for deleting its rows; the check before commit proves nothing dangles.
      await sql`PRAGMA foreign_keys = OFF`.execute(db);
      try {
        await db.transaction().execute(async (trx) => {
          const triggers = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
            WHERE type = 'trigger' AND tbl_name = 'signatures' ORDER BY name`.execute(trx);

          await trx.schema
            .createTable('signatures_by_time_key')
            .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
            .addColumn('user_id', 'text', (c) => c.notNull())
            .addColumn('username', 'text', (c) => c.notNull())
            .addColumn('display_name', 'text', (c) => c.notNull())
            .addColumn('signed_at', 'text', (c) => c.notNull())
            .addPrimaryKeyConstraint('signatures_pk', ['petition_id', 'signed_at', 'user_id'])
            .modifyEnd(sql`without rowid`)
            .execute();
          // In the new key's order (the old signatures_by_time walks it), so every page is filled once.
          await sql`INSERT INTO signatures_by_time_key (petition_id, user_id, username, display_name, signed_at)
            SELECT petition_id, user_id, username, display_name, signed_at FROM signatures
            ORDER BY petition_id, signed_at, user_id`.execute(trx);
          await sql`DROP TABLE signatures`.execute(trx);
          await sql`ALTER TABLE signatures_by_time_key RENAME TO signatures`.execute(trx);

          await trx.schema.createIndex('signatures_by_user').on('signatures').columns(['user_id', 'petition_id']).unique().execute();
          await trx.schema.createIndex('signatures_by_signed_at').on('signatures').column('signed_at').execute();
          for (const trigger of triggers.rows) await sql.raw(trigger.sql).execute(trx);

          const dangling = await sql`PRAGMA foreign_key_check`.execute(trx);
          if (dangling.rows.length) throw new Error(`foreign keys dangle after rebuilding signatures: ${JSON.stringify(dangling.rows.slice(0, 5))}`);
        });
      } finally {
        await sql`PRAGMA foreign_keys = ON`.execute(db);
      }
    },
  },
  postgres: unchanged,
};
