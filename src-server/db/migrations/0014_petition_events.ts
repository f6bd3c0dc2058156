import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';
import type { EngineMigration } from './migration.ts';

/**
 * Signers hear back (docs/notifications.md#how-it-is-stored). Fan-out on read: an event is ONE row
 * per thing that happened to a petition, whatever its number of signers; a member's feed is the
 * events of the petitions they signed or created, read with the indexes below.
 *
 * - petition_events: id in commit order (writers hold a lock from insert to commit, feed/events.ts),
 *   so a background reader (web push) can keep a cursor `id > n` and never miss one; AUTOINCREMENT
 *   on SQLite so an id is never reused after retention deletes old rows. `dedupe_key` makes
 *   "reached 10 signatures" happen once per petition (NULLs are distinct in both engines).
 * - feed_read_state: each member's read marker ("everything up to this id is read"), the push
 *   switch and a version every change of the member's side bumps; feed_reads: events read one by
 *   one above the marker (emptied by "mark all read").
 * - feed_generation: one row, bumped whenever events are deleted (retention, a petition deleted), so
 *   a node's cached unread counts know to recount (feed/member-feed.ts).
 * - feed_mutes: "stop updates for this petition"; feed_topic_optouts: topics switched off.
 * - signatures_by_user: a member's signatures (their feed, the "Signed" list), newest first.
 */
export const petitionEventsMigration: EngineMigration = { sqlite: form('sqlite'), postgres: form('postgres') };

function form(dialect: SqlDialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const postgres = dialect === 'postgres';
      // As in 0001: PostgreSQL compares text byte by byte, as SQLite does.
      const text = postgres ? sql`text collate "C"` : ('text' as const);
      const eventId = postgres ? ('bigserial' as const) : ('integer' as const);
      const eventRef = postgres ? ('bigint' as const) : ('integer' as const);
      const autoIncrement = (c: ColumnDefinitionBuilder) => (postgres ? c : c.autoIncrement());

      await db.schema
        .createTable('petition_events')
        .addColumn('id', eventId, (c) => autoIncrement(c.primaryKey()))
        .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
        .addColumn('kind', text, (c) => c.notNull())
        .addColumn('audience', text, (c) => c.notNull())
        .addColumn('detail', text, (c) => c.notNull())
        .addColumn('actor_id', text)
        .addColumn('dedupe_key', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .execute();
      // Carries every column a member's feed filters on, so reading it never visits the table (feed/member-feed.ts).
      await db.schema
        .createIndex('petition_events_petition')
        .on('petition_events')
        .columns(['petition_id', 'id', 'audience', 'kind', 'created_at', 'actor_id'])
        .execute();
      await db.schema.createIndex('petition_events_created').on('petition_events').columns(['created_at']).execute();
      await db.schema
        .createIndex('petition_events_dedupe')
        .on('petition_events')
        .columns(['petition_id', 'dedupe_key'])
        .unique()
        .execute();

      await db.schema
        .createTable('feed_read_state')
        .addColumn('user_id', text, (c) => c.primaryKey())
        .addColumn('read_up_to', eventRef, (c) => c.notNull().defaultTo(0))
        .addColumn('push_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', text, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('feed_generation')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('value', 'integer', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO feed_generation (id, value) VALUES (1, 0)`.execute(db);
      // Deleting events (a petition's, with it; retention's) changes what members have unread.
      if (postgres) {
        await sql`CREATE FUNCTION feed_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            UPDATE feed_generation SET value = value + 1 WHERE id = 1;
            RETURN NULL;
          END $$`.execute(db);
        await sql`CREATE TRIGGER petition_events_deleted AFTER DELETE ON petition_events FOR EACH STATEMENT EXECUTE FUNCTION feed_generation_bump()`.execute(db);
      } else {
        await sql`CREATE TRIGGER petition_events_deleted AFTER DELETE ON petition_events BEGIN
          UPDATE feed_generation SET value = value + 1 WHERE id = 1;
        END`.execute(db);
      }

      await db.schema
        .createTable('feed_reads')
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('event_id', eventRef, (c) => c.notNull().references('petition_events.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('feed_reads_pk', ['user_id', 'event_id'])
        .execute();
      await db.schema.createIndex('feed_reads_event').on('feed_reads').columns(['event_id']).execute();

      await db.schema
        .createTable('feed_mutes')
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('petition_id', 'integer', (c) => c.notNull().references('petitions.id').onDelete('cascade'))
        .addColumn('created_at', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('feed_mutes_pk', ['user_id', 'petition_id'])
        .execute();
      await db.schema.createIndex('feed_mutes_petition').on('feed_mutes').columns(['petition_id', 'user_id']).execute();

      await db.schema
        .createTable('feed_topic_optouts')
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('topic', text, (c) => c.notNull())
        .addPrimaryKeyConstraint('feed_topic_optouts_pk', ['user_id', 'topic'])
        .execute();
      await db.schema.createIndex('feed_topic_optouts_topic').on('feed_topic_optouts').columns(['topic', 'user_id']).execute();

      await db.schema.createIndex('signatures_by_user').on('signatures').columns(['user_id', 'signed_at', 'petition_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      const postgres = dialect === 'postgres';
      await db.schema.dropIndex('signatures_by_user').execute();
      if (postgres) await sql`DROP FUNCTION feed_generation_bump() CASCADE`.execute(db);
      for (const table of ['feed_topic_optouts', 'feed_mutes', 'feed_reads', 'feed_generation', 'feed_read_state', 'petition_events']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
