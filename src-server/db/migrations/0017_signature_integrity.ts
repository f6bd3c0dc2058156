import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';
import type { EngineMigration } from './migration.ts';

/**
 * Signature integrity (docs/integrity.md):
 *
 * - `users.account_created_at` and `users.account_verified`: the ROBLOX account's creation time (the
 *   `created_at` claim, stored as ISO-8601 UTC text like every other instant) and whether the account
 *   is verified, as the last sign-in gave them; null when the provider did not say.
 * - `signatures_by_signed_at`: the signing monitor reads the signatures made since its last pass by
 *   time alone (integrity/signing-monitor.ts). On SQLite the index also carries the key (petition, user).
 * - `invalidated_signatures`: signatures staff invalidated, moved out of `signatures` so nothing that
 *   counts, lists or notifies signers can see them, and kept (with the invalidation that moved them)
 *   so they can be restored exactly. The key is the signature's own: a member has at most one
 *   signature per petition, counted or invalidated, never both.
 * - `invalidation_jobs`: invalidations and restores, run in the background one chunk at a time
 *   (integrity/invalidation-runner.ts), with their cursor, progress and the lease of the node running them.
 * - `signing_activity` and `signing_alerts`: per petition and minute, what the monitor counted; the
 *   rules a petition tripped, once per rule and UK day.
 */
export const signatureIntegrityMigration: EngineMigration = { sqlite: form('sqlite'), postgres: form('postgres') };

function form(dialect: SqlDialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const postgres = dialect === 'postgres';
      // Compared and sorted byte by byte on both engines, as in 0001.
      const text = postgres ? sql`text collate "C"` : ('text' as const);
      const autoId = postgres ? ('serial' as const) : ('integer' as const);
      const autoIncrement = (c: ColumnDefinitionBuilder) => (postgres ? c : c.autoIncrement());
      // SQLite: keyed tables stored as their key's b-tree, as 0004 did for signatures.
      const clustered = <T extends string, C extends string>(builder: CreateTableBuilder<T, C>) =>
        postgres ? builder : builder.modifyEnd(sql`without rowid`);

      await db.schema.alterTable('users').addColumn('account_created_at', text).execute();
      await db.schema.alterTable('users').addColumn('account_verified', 'integer').execute();

      await db.schema.createIndex('signatures_by_signed_at').on('signatures').column('signed_at').execute();

      await db.schema
        .createTable('invalidation_jobs')
        .addColumn('id', autoId, (c) => autoIncrement(c.primaryKey()))
        .addColumn('kind', text, (c) => c.notNull())
        .addColumn('criteria', text)
        .addColumn('restores_job_id', 'integer', (c) => c.references('invalidation_jobs.id').onDelete('cascade'))
        .addColumn('reason', text, (c) => c.notNull())
        .addColumn('requested_by', text, (c) => c.notNull())
        .addColumn('requested_by_role', text, (c) => c.notNull())
        .addColumn('requested_at', text, (c) => c.notNull())
        .addColumn('state', text, (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('petitions_changed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cursor', text)
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', text)
        .addColumn('lease_until', text)
        .addColumn('started_at', text)
        .addColumn('finished_at', text)
        .addColumn('restored_by_job_id', 'integer')
        .addColumn('last_error', text)
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('invalidation_jobs_state').on('invalidation_jobs').columns(['state', 'id']).execute();

      await clustered(
        db.schema
          .createTable('invalidated_signatures')
          .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
          .addColumn('user_id', text, (c) => c.notNull())
          .addColumn('username', text, (c) => c.notNull())
          .addColumn('display_name', text, (c) => c.notNull())
          .addColumn('signed_at', text, (c) => c.notNull())
          .addColumn('job_id', 'integer', (c) => c.notNull().references('invalidation_jobs.id').onDelete('cascade'))
          .addColumn('invalidated_at', text, (c) => c.notNull())
          .addPrimaryKeyConstraint('invalidated_signatures_pk', ['petition_id', 'user_id']),
      ).execute();
      // A restore walks its invalidation's rows petition by petition, oldest first.
      await db.schema
        .createIndex('invalidated_signatures_by_job')
        .on('invalidated_signatures')
        .columns(['job_id', 'petition_id', 'signed_at', 'user_id'])
        .execute();

      await clustered(
        db.schema
          .createTable('signing_activity')
          .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
          .addColumn('minute', text, (c) => c.notNull())
          .addColumn('signatures', 'integer', (c) => c.notNull())
          .addColumn('young', 'integer', (c) => c.notNull())
          .addColumn('peak', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('signing_activity_pk', ['petition_id', 'minute']),
      ).execute();
      await db.schema.createIndex('signing_activity_minute').on('signing_activity').column('minute').execute();

      await clustered(
        db.schema
          .createTable('signing_alerts')
          .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
          .addColumn('rule', text, (c) => c.notNull())
          .addColumn('day', text, (c) => c.notNull())
          .addColumn('raised_at', text, (c) => c.notNull())
          .addColumn('detail', text, (c) => c.notNull())
          .addPrimaryKeyConstraint('signing_alerts_pk', ['petition_id', 'rule', 'day']),
      ).execute();
      await db.schema.createIndex('signing_alerts_raised').on('signing_alerts').column('raised_at').execute();
    },
  };
}
