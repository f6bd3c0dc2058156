/**
 * The push queue's second step (docs/notifications.md#web-push): an event's recipients, a page at a
 * time, become one delivery row per device of theirs with web push on. Recipients are the feed's
 * (feed/recipients.ts: creator and signers, minus mutes, switched-off topics and the acting staff
 * member), read when the page is fanned out, in user id order.
 *
 * A page is claimed by one node (claimed_until), and its deliveries are written in the same
 * transaction that moves the job past the page, under the same claim: a node whose claim lapsed and
 * was taken over writes nothing. So each page is fanned out exactly once, and with the unique
 * (event, device) key a device never gets a second row for an event, even after its first was sent.
 */
import type { Kysely } from 'kysely';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { parseDetail, type StoredPetitionEvent } from '../feed/events.ts';
import type { EventAudience } from '../../src-shared/domain/feed-constants.ts';
import { eventRecipients } from '../feed/recipients.ts';

export const FANOUT_PAGE = 500;

class ClaimLost extends Error {}

async function readEvent(db: Kysely<Database>, eventId: number): Promise<StoredPetitionEvent | null> {
  const row = await db
    .selectFrom('petition_events')
    .select(['id', 'petition_id', 'kind', 'audience', 'detail', 'actor_id', 'created_at'])
    .where('id', '=', eventId)
    .executeTakeFirst();
  const detail = row ? parseDetail(row.kind, row.detail) : null;
  if (!row || !detail) return null;
  return { id: row.id, petitionId: row.petition_id, detail, audience: row.audience as EventAudience, actorId: row.actor_id, at: row.created_at };
}

/**
 * Fans out one page of the oldest due job; returns how many deliveries it queued, or null when no
 * job was due (or another node holds them all).
 */
export async function fanOutNextPage(
  db: Kysely<Database>,
  dialect: SqlDialectName,
  options: { now: Date; claimMs: number; pageSize?: number },
): Promise<number | null> {
  const pageSize = options.pageSize ?? FANOUT_PAGE;
  const now = options.now.toISOString();
  const claim = new Date(options.now.getTime() + options.claimMs).toISOString();
  const job = await db
    .updateTable('push_fanouts')
    .set({ claimed_until: claim })
    .where('event_id', 'in', (eb) =>
      eb
        .selectFrom('push_fanouts')
        .select('event_id')
        .where('claimed_until', '<=', now)
        .orderBy('event_id')
        .limit(1)
        .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked()),
    )
    .where('claimed_until', '<=', now)
    .returning(['event_id', 'after_user_id'])
    .executeTakeFirst();
  if (!job) return null;

  const event = await readEvent(db, job.event_id);
  const recipients = event ? await eventRecipients(db, event, { afterUserId: job.after_user_id, limit: pageSize }) : [];
  const devices = recipients.length
    ? await db
        .selectFrom('push_subscriptions as s')
        .innerJoin('feed_read_state as r', 'r.user_id', 's.user_id')
        .select('s.id')
        .where('r.push_enabled', '=', 1)
        .where('s.user_id', 'in', recipients)
        .execute()
    : [];
  const last = recipients.at(-1) ?? null;
  const finished = recipients.length < pageSize;
  try {
    await db.transaction().execute(async (trx) => {
      const moved = finished
        ? await trx.deleteFrom('push_fanouts').where('event_id', '=', job.event_id).where('claimed_until', '=', claim).executeTakeFirst()
        : await trx
            .updateTable('push_fanouts')
            .set({ after_user_id: last, claimed_until: now })
            .where('event_id', '=', job.event_id)
            .where('claimed_until', '=', claim)
            .executeTakeFirst();
      const count = 'numDeletedRows' in moved ? moved.numDeletedRows : moved.numUpdatedRows;
      if (Number(count) !== 1) throw new ClaimLost();
      if (devices.length) {
        await trx
          .insertInto('push_deliveries')
          .values(devices.map((device) => ({ event_id: job.event_id, subscription_id: device.id, due_at: now })))
          .onConflict((oc) => oc.columns(['event_id', 'subscription_id']).doNothing())
          .execute();
      }
    });
  } catch (error) {
    if (error instanceof ClaimLost) return 0;
    throw error;
  }
  return devices.length;
}
