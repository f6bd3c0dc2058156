import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';
import type { EngineMigration } from './migration.ts';

/**
 * The audit log keeps when a staff action was made as well as when it was applied
 * (docs/audit.md#made-at-and-applied-at): `made_at` is the time the console's outbox recorded the
 * action (null for actions made online, where it is `at`). The audit screen filters by who, what,
 * petition and date and pages newest first by id: one index per filter, each ending in id.
 * Existing rows keep `made_at` null.
 */
function form(dialect: SqlDialectName): Migration {
  const text = dialect === 'postgres' ? sql`text collate "C"` : ('text' as const);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('audit_log').addColumn('made_at', text).execute();
      await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'id']).execute();
      await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
      await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id', 'id']).execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const index of ['audit_log_at', 'audit_log_target', 'audit_log_action', 'audit_log_actor']) {
        await db.schema.dropIndex(index).execute();
      }
      await db.schema.alterTable('audit_log').dropColumn('made_at').execute();
    },
  };
}

export const auditMadeAtMigration: EngineMigration = { sqlite: form('sqlite'), postgres: form('postgres') };
