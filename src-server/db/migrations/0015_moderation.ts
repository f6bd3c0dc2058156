import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';
import type { EngineMigration } from './migration.ts';

/**
 * Community safety (docs/moderation.md):
 *  - petitions get a moderation state (NULL: visible; 'hidden'; 'rejected'), the moderator's note
 *    for a hide, the rejection reason's code and when it happened. Nothing else of the petition is
 *    touched by moderation, so restoring brings back exactly what was there. A partial index holds
 *    only the moderated petitions: the public reads subtract them cheaply (petitions/public-visibility.ts);
 *  - petition_reports: one row per member per petition (the unique key is the "already reported"
 *    rule), open until a decision settles it; indexed for the open count per petition and for the
 *    daily limit per member;
 *  - rejection_reasons: the administrator's list, seeded here with the usual reasons (their text is
 *    data from now on: the administrator edits it, this migration never runs again);
 *  - moderation_events: what happened to each petition (hidden by reports, and each decision), kept
 *    with the creator's id so a moderator sees a creator's past moderation at a glance. Its highest
 *    id also tells every node that lists must be read afresh (moderation/moderation-watermark.ts).
 */
function form(dialect: SqlDialectName): Migration {
  const postgres = dialect === 'postgres';
  const autoId = postgres ? ('serial' as const) : ('integer' as const);
  const autoIncrement = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('petitions').addColumn('moderation_state', 'text').execute();
      await db.schema.alterTable('petitions').addColumn('moderation_note', 'text').execute();
      await db.schema.alterTable('petitions').addColumn('moderation_reason_code', 'text').execute();
      await db.schema.alterTable('petitions').addColumn('moderated_at', 'text').execute();
      await db.schema
        .createIndex('petitions_moderated')
        .on('petitions')
        .columns(['moderation_state', 'id'])
        .where(sql.ref('moderation_state'), 'is not', null)
        .execute();

      await db.schema
        .createTable('petition_reports')
        .addColumn('id', autoId, autoIncrement)
        .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
        .addColumn('reporter_id', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('duplicate_of', 'integer')
        .addColumn('details', 'text')
        .addColumn('reported_at', 'text', (c) => c.notNull())
        .addColumn('settled_at', 'text')
        .addColumn('settled_by', 'text')
        .execute();
      await db.schema.createIndex('petition_reports_one_per_member').on('petition_reports').columns(['petition_id', 'reporter_id']).unique().execute();
      await db.schema.createIndex('petition_reports_by_reporter').on('petition_reports').columns(['reporter_id', 'reported_at']).execute();
      await db.schema
        .createIndex('petition_reports_open')
        .on('petition_reports')
        .column('petition_id')
        .where(sql.ref('settled_at'), 'is', null)
        .execute();

      await db.schema
        .createTable('rejection_reasons')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('public_text', 'text', (c) => c.notNull())
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      const seededAt = new Date().toISOString();
      await db
        .insertInto('rejection_reasons' as never)
        .values(
          SEEDED_REASONS.map(([code, title, publicText, hidden], position) => ({
            code,
            title,
            public_text: publicText,
            hidden: hidden ? 1 : 0,
            position: position + 1,
            updated_at: seededAt,
          })) as never,
        )
        .execute();

      await db.schema
        .createTable('moderation_events')
        .addColumn('id', autoId, autoIncrement)
        .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
        .addColumn('creator_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('reason_code', 'text')
        .addColumn('note', 'text')
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('actor_role', 'text')
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('moderation_events_by_creator').on('moderation_events').columns(['creator_id', 'id']).execute();
      await db.schema.createIndex('moderation_events_by_petition').on('moderation_events').columns(['petition_id', 'id']).execute();
      // Statistics for the new columns at once (every row: no moderation), so the first lists after
      // an upgrade are planned on the truth rather than on defaults.
      // (PostgreSQL only: SQLite's plans here are tuned without statistics tables.)
      if (postgres) await sql`ANALYZE petitions`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('moderation_events').execute();
      await db.schema.dropTable('rejection_reasons').execute();
      await db.schema.dropTable('petition_reports').execute();
      await db.schema.dropIndex('petitions_moderated').execute();
      for (const column of ['moderated_at', 'moderation_reason_code', 'moderation_note', 'moderation_state']) {
        await db.schema.alterTable('petitions').dropColumn(column).execute();
      }
    },
  };
}

/** [code, title, public text, hidden]: the reasons of issue #21, in the order moderators see them. */
const SEEDED_REASONS: readonly (readonly [string, string, string, boolean])[] = [
  ['duplicate', 'Duplicate of another petition', 'There is already a petition about the same thing. Please sign that petition instead.', false],
  ['offensive', 'Offensive or inappropriate', 'It included language or content that is offensive or inappropriate.', false],
  ['personal_information', 'Contains personal information', 'It included personal information about someone.', true],
  ['not_government', 'Not something the government is responsible for', 'It asked for something the government is not responsible for.', false],
  ['unclear', 'Unclear or does not ask for an action', 'It did not say clearly what action it wants the government to take.', false],
  ['advertising', 'Advertising or spam', 'It advertised a product or service, or was spam.', false],
];

export const moderationMigration: EngineMigration = { sqlite: form('sqlite'), postgres: form('postgres') };
