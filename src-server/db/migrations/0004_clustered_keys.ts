import { sql, type Kysely } from 'kysely';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * SQLite: users, sessions and signatures are looked up by their text or composite keys on every
 * signed-in request and every signature. As rowid tables each lookup walks two b-trees (the key's
 * index, then the table); stored WITHOUT ROWID, the table is the key's b-tree and one walk finds
 * the row. A petition's signatures also end up side by side. The signer list's index carries the
 * signer's name, so the page of first signers is read from that index alone.
 *
 * PostgreSQL keeps heap tables with key indexes; nothing to change there.
 */
export const clusteredKeysMigration: EngineMigration = {
  sqlite: {
    async up(db: Kysely<unknown>) {
      // Replacing a referenced table (users) must not cascade its rows away, and SQLite only
      // switches foreign keys off outside a transaction. The check before commit proves nothing dangles.
      await sql`PRAGMA foreign_keys = OFF`.execute(db);
      try {
        await db.transaction().execute(async (trx) => {
          await trx.schema
            .createTable('users_clustered')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .addColumn('username', 'text', (c) => c.notNull())
            .addColumn('display_name', 'text', (c) => c.notNull())
            .addColumn('avatar_url', 'text')
            .addColumn('citizen_rank', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('government_rank', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('groups_unavailable', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('roles_checked_at', 'text')
            .addColumn('created_at', 'text', (c) => c.notNull())
            .addColumn('updated_at', 'text', (c) => c.notNull())
            .modifyEnd(sql`without rowid`)
            .execute();
          await replaceTable(trx, 'users', 'users_clustered');

          await trx.schema
            .createTable('sessions_clustered')
            .addColumn('id_hash', 'text', (c) => c.primaryKey())
            .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
            .addColumn('client_kind', 'text', (c) => c.notNull())
            .addColumn('created_at', 'text', (c) => c.notNull())
            .addColumn('last_seen_at', 'text', (c) => c.notNull())
            .addColumn('idle_expires_at', 'text', (c) => c.notNull())
            .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
            .addColumn('tokens', 'text')
            .modifyEnd(sql`without rowid`)
            .execute();
          await replaceTable(trx, 'sessions', 'sessions_clustered');
          await trx.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

          await trx.schema
            .createTable('signatures_clustered')
            .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
            .addColumn('user_id', 'text', (c) => c.notNull())
            .addColumn('username', 'text', (c) => c.notNull())
            .addColumn('display_name', 'text', (c) => c.notNull())
            .addColumn('signed_at', 'text', (c) => c.notNull())
            .addPrimaryKeyConstraint('signatures_pk', ['petition_id', 'user_id'])
            .modifyEnd(sql`without rowid`)
            .execute();
          await replaceTable(trx, 'signatures', 'signatures_clustered');
          await trx.schema
            .createIndex('signatures_by_time')
            .on('signatures')
            .columns(['petition_id', 'signed_at', 'user_id', 'username', 'display_name'])
            .execute();

          const dangling = await sql`PRAGMA foreign_key_check`.execute(trx);
          if (dangling.rows.length) throw new Error(`foreign keys dangle after rebuilding tables: ${JSON.stringify(dangling.rows.slice(0, 5))}`);
        });
      } finally {
        await sql`PRAGMA foreign_keys = ON`.execute(db);
      }
    },
  },
  postgres: unchanged,
};

/** Copies every row into the new table, then lets it take the old one's name (and its indexes go with the old). */
async function replaceTable(db: Kysely<unknown>, name: string, replacement: string): Promise<void> {
  await sql`INSERT INTO ${sql.table(replacement)} SELECT * FROM ${sql.table(name)}`.execute(db);
  await sql`DROP TABLE ${sql.table(name)}`.execute(db);
  await sql`ALTER TABLE ${sql.table(replacement)} RENAME TO ${sql.table(name)}`.execute(db);
}
