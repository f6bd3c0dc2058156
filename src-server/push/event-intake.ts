/**
 * The push queue's first step (docs/notifications.md#web-push): petition events enter it in id
 * order, each as a fan-out job (push_fanouts). Events are committed in id order on every node
 * (feed/events.ts), so the cursor in push_state never passes an event that is still to commit.
 * One node at a time moves the cursor: the others find the state row locked and leave it (PostgreSQL
 * SKIP LOCKED; SQLite has one writer). The jobs and the cursor move in one transaction, so an event
 * is taken in exactly once, whatever crashes.
 */
import { sql, type Kysely } from 'kysely';
import { PUSH_TTL_SECONDS } from '../../src-shared/domain/push-constants.ts';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { readEventsAfter } from '../feed/events.ts';

export const INTAKE_BATCH = 500;

/** Takes in the next events after the cursor; returns how many the cursor moved past (0: nothing new, or another node is at it). */
export async function takeInEvents(db: Kysely<Database>, dialect: SqlDialectName, now: Date, limit = INTAKE_BATCH): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const state = await trx
      .selectFrom('push_state')
      .select('event_cursor')
      .where('id', '=', 1)
      .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked())
      .executeTakeFirst();
    if (!state) return 0;
    const cursor = Number(state.event_cursor);
    const batch = await readEventsAfter(trx, cursor, limit);
    if (batch.cursor === cursor) return 0;
    // News older than a push message may live is not pushed (e.g. events from while push was off).
    const horizon = new Date(now.getTime() - PUSH_TTL_SECONDS * 1000).toISOString();
    const fresh = batch.events.filter((event) => event.at >= horizon);
    // Without a single device on the site there is nobody to fan out to.
    const anyDevice = await trx.selectFrom('push_subscriptions').select('id').limit(1).executeTakeFirst();
    if (fresh.length && anyDevice) {
      const due = now.toISOString();
      await trx
        .insertInto('push_fanouts')
        .values(fresh.map((event) => ({ event_id: event.id, after_user_id: null, claimed_until: due })))
        .onConflict((oc) => oc.column('event_id').doNothing())
        .execute();
    }
    await trx.updateTable('push_state').set({ event_cursor: batch.cursor }).where('id', '=', 1).execute();
    return batch.cursor - cursor;
  });
}

/** How far the queue is behind the newest event (for tests and the benchmark). */
export async function intakeLag(db: Kysely<Database>): Promise<number> {
  const row = await sql<{ lag: number | string | null }>`
    SELECT (SELECT COALESCE(MAX(id), 0) FROM petition_events) - (SELECT event_cursor FROM push_state WHERE id = 1) AS lag`.execute(db);
  return Number(row.rows[0]?.lag ?? 0);
}
