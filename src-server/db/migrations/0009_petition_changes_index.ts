import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EngineMigration } from './migration.ts';

/**
 * The console's "what changed in the queues since" read walks petitions in (updated_at, id) order
 * from its cursor; this index makes that a range read of the changed rows only. The same plain
 * column index serves both engines.
 */
const createIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('petitions_updated_id').on('petitions').columns(['updated_at', 'id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('petitions_updated_id').execute();
  },
};

export const petitionChangesIndexMigration: EngineMigration = { sqlite: createIndex, postgres: createIndex };
