import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EngineMigration } from './migration.ts';

/**
 * The staff chat queue's table takes its own name: `notification_outbox` becomes `chat_messages`
 * (staff-chat/chat-queue.ts), because "outbox" names only the console's queued staff actions and
 * "notifications" the members' own. A rename in place: every row, its id and the id sequence stay.
 * SQLite cannot rename an index, so the small due-index is built again under its new name;
 * PostgreSQL renames the index, the primary key and the id sequence along with the table.
 */
const sqlite: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('notification_outbox').renameTo('chat_messages').execute();
    await db.schema.dropIndex('outbox_due').execute();
    await db.schema.createIndex('chat_messages_due').on('chat_messages').columns(['state', 'next_attempt_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('chat_messages_due').execute();
    await db.schema.alterTable('chat_messages').renameTo('notification_outbox').execute();
    await db.schema.createIndex('outbox_due').on('notification_outbox').columns(['state', 'next_attempt_at']).execute();
  },
};

const postgres: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE notification_outbox RENAME TO chat_messages`.execute(db);
    await sql`ALTER TABLE chat_messages RENAME CONSTRAINT notification_outbox_pkey TO chat_messages_pkey`.execute(db);
    await sql`ALTER INDEX outbox_due RENAME TO chat_messages_due`.execute(db);
    await sql`ALTER SEQUENCE notification_outbox_id_seq RENAME TO chat_messages_id_seq`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER SEQUENCE chat_messages_id_seq RENAME TO notification_outbox_id_seq`.execute(db);
    await sql`ALTER INDEX chat_messages_due RENAME TO outbox_due`.execute(db);
    await sql`ALTER TABLE chat_messages RENAME CONSTRAINT chat_messages_pkey TO notification_outbox_pkey`.execute(db);
    await sql`ALTER TABLE chat_messages RENAME TO notification_outbox`.execute(db);
  },
};

export const chatMessagesMigration: EngineMigration = { sqlite, postgres };
