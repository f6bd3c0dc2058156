import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EngineMigration } from './migration.ts';

/**
 * The petitions a term's completion closed (terms/term-closures.ts), so that the term becoming
 * current again reopens exactly those and no others: not petitions closed for insufficient
 * signatures, nor any closed or reopened by hand since (their closed_at no longer matches).
 * A row lives from the closure to the reopening; deleting the term or the petition drops it.
 */
const portable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('term_closed_petitions')
      .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
      .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
      .addColumn('closed_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('term_closed_petitions_pk', ['term_id', 'petition_id'])
      .execute();
    // Deleting a petition looks its rows up by petition (the foreign key's cascade).
    await db.schema.createIndex('term_closed_petitions_petition').on('term_closed_petitions').column('petition_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('term_closed_petitions').execute();
  },
};

/** Plain tables and an index: one form serves both engines. */
export const termClosuresMigration: EngineMigration = { sqlite: portable, postgres: portable };
