import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';
import type { EngineMigration } from './migration.ts';

/**
 * Web push (docs/notifications.md#web-push): members' devices and the durable delivery queue.
 *
 * - push_subscriptions: one row per device (browser) as its Push API gave it; the endpoint is unique
 *   (a device belongs to the member who registered it last). `session_hash` is the web session that
 *   registered it, so signing out removes it (push/subscriptions.ts).
 * - push_state: one row, the id of the last petition event the queue took in (events are committed in
 *   id order, feed/events.ts). It starts at the newest event, so history is never pushed.
 * - push_fanouts: an event being fanned out, page by page of its recipients (`after_user_id`), by
 *   whichever node holds its claim (`claimed_until`).
 * - push_deliveries: one message for one device, created once (unique event × device) and deleted
 *   once its push service took it; `due_at` is when it may be (re)tried or, while `sending`, when the
 *   claim of the node sending it lapses (another node may then send it again: push/delivery.ts).
 * Events deleted (retention, a petition deleted) and devices removed take their queue rows with them.
 */
export const webPushMigration: EngineMigration = { sqlite: form('sqlite'), postgres: form('postgres') };

function form(dialect: SqlDialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const postgres = dialect === 'postgres';
      // As in 0001: PostgreSQL compares text byte by byte, as SQLite does.
      const text = postgres ? sql`text collate "C"` : ('text' as const);
      const serial = postgres ? ('bigserial' as const) : ('integer' as const);
      const reference = postgres ? ('bigint' as const) : ('integer' as const);
      const autoIncrement = (c: ColumnDefinitionBuilder) => (postgres ? c : c.autoIncrement());

      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', serial, (c) => autoIncrement(c.primaryKey()))
        .addColumn('user_id', text, (c) => c.notNull())
        .addColumn('endpoint', text, (c) => c.notNull().unique())
        .addColumn('p256dh', text, (c) => c.notNull())
        .addColumn('auth', text, (c) => c.notNull())
        .addColumn('expires_at', text)
        .addColumn('session_hash', text)
        .addColumn('created_at', text, (c) => c.notNull())
        .addColumn('updated_at', text, (c) => c.notNull())
        .addColumn('last_delivered_at', text)
        .execute();
      await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('push_subscriptions_session').on('push_subscriptions').columns(['session_hash']).execute();

      await db.schema
        .createTable('push_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('event_cursor', reference, (c) => c.notNull())
        .execute();
      await sql`INSERT INTO push_state (id, event_cursor) SELECT 1, COALESCE(MAX(id), 0) FROM petition_events`.execute(db);

      await db.schema
        .createTable('push_fanouts')
        .addColumn('event_id', reference, (c) => c.primaryKey().references('petition_events.id').onDelete('cascade'))
        .addColumn('after_user_id', text)
        .addColumn('claimed_until', text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('push_fanouts_due').on('push_fanouts').columns(['claimed_until', 'event_id']).execute();

      await db.schema
        .createTable('push_deliveries')
        .addColumn('id', serial, (c) => autoIncrement(c.primaryKey()))
        .addColumn('event_id', reference, (c) => c.notNull().references('petition_events.id').onDelete('cascade'))
        .addColumn('subscription_id', reference, (c) => c.notNull().references('push_subscriptions.id').onDelete('cascade'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('due_at', text, (c) => c.notNull())
        .addColumn('sending', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', text)
        .execute();
      await db.schema
        .createIndex('push_deliveries_once')
        .on('push_deliveries')
        .columns(['event_id', 'subscription_id'])
        .unique()
        .execute();
      await db.schema.createIndex('push_deliveries_subscription').on('push_deliveries').columns(['subscription_id']).execute();
      await db.schema.createIndex('push_deliveries_due').on('push_deliveries').columns(['due_at', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['push_deliveries', 'push_fanouts', 'push_state', 'push_subscriptions']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
