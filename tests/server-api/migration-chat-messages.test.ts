/**
 * Migration 0011 renames the chat queue's table from notification_outbox to chat_messages on the
 * engine under test. A database holding queued and delivered messages at 0010 must come out with
 * every row as it was, its index under the new name, and new messages numbered after the old ones.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/database.ts';
import { enqueueChatMessage } from '../../src-server/staff-chat/chat-queue.ts';
import { testDatabaseAt } from '../support/database-at.ts';
import { createTestDatabase, TEST_ENGINE } from '../support/test-database.ts';

const BEFORE = '0010_first_signers_in_batch';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-migration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const oldDatabase = (url: string) => testDatabaseAt(url, BEFORE);

const OLD_ROWS = [
  { event: 'debate.added', payload: '{"embeds":[{"title":"sent"}]}', state: 'sent', attempts: 1, next_attempt_at: '2026-01-01T10:00:00.000Z', last_error: null, created_at: '2026-01-01T10:00:00.000Z', sent_at: '2026-01-01T10:00:01.000Z' },
  { event: 'staff.message', payload: '{"embeds":[{"title":"waiting"}]}', state: 'pending', attempts: 2, next_attempt_at: '2026-01-01T10:05:00.000Z', last_error: 'Webhook answered 503', created_at: '2026-01-01T10:01:00.000Z', sent_at: null },
];

describe(`migration 0011 (chat_messages) on ${TEST_ENGINE}`, () => {
  it('keeps every queued message, renames the due index and numbers new messages after the old ones', async () => {
    const testDatabase = await createTestDatabase(dir, 'old.db');
    try {
      const old = await oldDatabase(testDatabase.url);
      for (const row of OLD_ROWS) {
        await sql`INSERT INTO notification_outbox (event, payload, state, attempts, next_attempt_at, last_error, created_at, sent_at)
          VALUES (${row.event}, ${row.payload}, ${row.state}, ${row.attempts}, ${row.next_attempt_at}, ${row.last_error}, ${row.created_at}, ${row.sent_at})`.execute(old);
      }
      await old.destroy();

      const database = await openDatabase(testDatabase.url);
      try {
        const db = database.db;
        const rows = await db.selectFrom('chat_messages').selectAll().orderBy('id').execute();
        expect(rows).toEqual(OLD_ROWS.map((row, index) => ({ id: index + 1, ...row })));

        const id = await enqueueChatMessage(db, { event: 'staff.message', message: { embeds: [{ title: 'after' }] }, now: new Date('2026-01-02T00:00:00Z') });
        expect(id).toBe(OLD_ROWS.length + 1);

        const catalog =
          database.dialect === 'sqlite'
            ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name IN ('notification_outbox', 'outbox_due', 'chat_messages', 'chat_messages_due') ORDER BY name`
            : sql<{ name: string }>`SELECT relname AS name FROM pg_class WHERE relname IN ('notification_outbox', 'outbox_due', 'chat_messages', 'chat_messages_due', 'notification_outbox_pkey', 'chat_messages_pkey', 'notification_outbox_id_seq', 'chat_messages_id_seq') ORDER BY relname`;
        const names = (await catalog.execute(db)).rows.map((row) => row.name);
        expect(names).toEqual(
          database.dialect === 'sqlite'
            ? ['chat_messages', 'chat_messages_due']
            : ['chat_messages', 'chat_messages_due', 'chat_messages_id_seq', 'chat_messages_pkey'],
        );
      } finally {
        await database.close();
      }
    } finally {
      await testDatabase.drop();
    }
  });
});
