import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EngineMigration } from './migration.ts';

/**
 * The daily creation limit counts petitions CREATED that UK day (petitions/daily-allowance.ts):
 * deleting one must not give a creation back. Each creation is recorded here, apart from the
 * petition and without a foreign key, so the record outlives the petition. Rows of earlier days
 * are pruned as the same user creates again, so the table holds a few rows per active user.
 */
const portable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('petition_creations')
      .addColumn('creator_id', 'text', (c) => c.notNull())
      .addColumn('petition_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('petition_creations_pk', ['creator_id', 'created_at', 'petition_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('petition_creations').execute();
  },
};

/** A plain table: one form serves both engines. */
export const petitionCreationsMigration: EngineMigration = { sqlite: portable, postgres: portable };
