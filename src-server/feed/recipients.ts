/**
 * Who an event reaches (docs/notifications.md#who-receives-what), derived when it is read, never
 * stored per signer:
 *  - kinds for signers reach the creator and every member who signed no later than the event;
 *    kinds for the creator reach the creator alone;
 *  - minus members who stopped updates for the petition (feed_mutes) or switched the event's topic
 *    off (feed_topic_optouts), and minus the staff member whose action it was;
 *  - while moderation hides or rejects the petition, the creator alone (its signers hear of it
 *    again in their feeds once it is restored; a push sent meanwhile is not sent again).
 * The member's feed (member-feed.ts) applies the same rules from the member's side.
 */
import type { FeedTopic } from '../../src-shared/domain/feed-constants.ts';
import { eventAudience, eventTopic, kindsOfTopics } from '../../src-shared/rules/feed.ts';
import { dialectOf } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { isPubliclyVisible } from '../petitions/public-visibility.ts';
import type { StoredPetitionEvent } from './events.ts';

/** Whether a member follows an event of this topic on this petition: not muted, topic on. */
async function follows(db: Db, userId: string, petitionId: number, topic: FeedTopic): Promise<boolean> {
  const [muted, optedOut] = await Promise.all([
    db.selectFrom('feed_mutes').select('user_id').where('user_id', '=', userId).where('petition_id', '=', petitionId).executeTakeFirst(),
    db.selectFrom('feed_topic_optouts').select('user_id').where('user_id', '=', userId).where('topic', '=', topic).executeTakeFirst(),
  ]);
  return !muted && !optedOut;
}

/** The petition's creator, and whether its signers hear of it now (not while moderation hides or rejects it). */
async function petitionAudience(db: Db, petitionId: number): Promise<{ creator: string | null; signersHear: boolean }> {
  const row = await db.selectFrom('petitions').select(['creator_id', 'moderation_state']).where('id', '=', petitionId).executeTakeFirst();
  return { creator: row?.creator_id ?? null, signersHear: row ? isPubliclyVisible(row) : false };
}

/**
 * The members an event reaches now, `limit` at a time after `afterUserId` (null: from the start), for
 * background delivery. The creator comes first when they did not sign (they still follow their
 * petition); everyone else is paged through the petition's signatures by key, so a petition with a
 * million signers is read in steps of `limit` rows: on PostgreSQL in user id order (its key is
 * (petition, user)), on SQLite in signing order, (signed_at, user id), its table's key
 * (docs/operations.md#the-signatures-table); SQLite has no (petition, user) order to walk.
 */
export async function eventRecipients(
  db: Db,
  event: StoredPetitionEvent,
  page: { afterUserId: string | null; limit: number },
): Promise<string[]> {
  const topic = eventTopic(event.detail.kind);
  const { creator, signersHear } = await petitionAudience(db, event.petitionId);
  const reached = (userId: string | null): userId is string => userId !== null && userId !== event.actorId;
  if (eventAudience(event.detail.kind) === 'creator' || !signersHear) {
    if (page.afterUserId !== null || !reached(creator)) return [];
    return (await follows(db, creator, event.petitionId, topic)) ? [creator] : [];
  }
  const result: string[] = [];
  if (page.afterUserId === null && reached(creator)) {
    const signed = await db
      .selectFrom('signatures')
      .select('user_id')
      .where('petition_id', '=', event.petitionId)
      .where('user_id', '=', creator)
      .executeTakeFirst();
    if (!signed && (await follows(db, creator, event.petitionId, topic))) result.push(creator);
  }
  let query = db
    .selectFrom('signatures as s')
    .select('s.user_id')
    .where('s.petition_id', '=', event.petitionId)
    .where('s.signed_at', '<=', event.at)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('feed_mutes as m').select('m.user_id').whereRef('m.user_id', '=', 's.user_id').whereRef('m.petition_id', '=', 's.petition_id'))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('feed_topic_optouts as o').select('o.user_id').whereRef('o.user_id', '=', 's.user_id').where('o.topic', '=', topic))),
    )
    .limit(page.limit - result.length);
  if (dialectOf(db) === 'postgres') {
    query = query.orderBy('s.user_id');
    if (page.afterUserId !== null) query = query.where('s.user_id', '>', page.afterUserId);
  } else {
    query = query.orderBy('s.signed_at').orderBy('s.user_id');
    const after = page.afterUserId === null ? undefined : await signingPosition(db, event, page.afterUserId);
    if (after) query = query.where((eb) => eb(eb.refTuple('s.signed_at', 's.user_id'), '>', eb.tuple(after.signed_at, after.user_id)));
  }
  if (event.actorId !== null) query = query.where('s.user_id', '<>', event.actorId);
  for (const row of await query.execute()) result.push(row.user_id);
  return result;
}

/**
 * Where the page after `userId` starts in signing order: their signature's (signed_at, user id), a
 * lookup in `signatures_by_user`. Undefined when there is none counting for the event: the cursor was
 * the creator, who did not sign, or the member unsigned (or signed again, later) since the last page.
 * The walk then starts over; fan-out's unique (event, device) key keeps the members it meets again
 * to one delivery (push/fan-out.ts).
 */
async function signingPosition(db: Db, event: StoredPetitionEvent, userId: string): Promise<{ signed_at: string; user_id: string } | undefined> {
  return db
    .selectFrom('signatures')
    .select(['signed_at', 'user_id'])
    .where('petition_id', '=', event.petitionId)
    .where('user_id', '=', userId)
    .where('signed_at', '<=', event.at)
    .executeTakeFirst();
}

/**
 * How many signers an event of `topic` on this petition would reach now, for the staff forms ("This
 * will notify 1,234 signers"): the live signature count minus the signers who muted the petition or
 * switched the topic off, and minus the staff member asking (their own action is not news to them).
 * Costs a key lookup per mute and per opt-out of that topic, never a pass over the signatures.
 */
export async function notificationAudience(
  db: Db,
  input: { petitionId: number; signatures: number; topic: FeedTopic; viewerId: string },
): Promise<number> {
  const { petitionId, topic, viewerId } = input;
  const { creator, signersHear } = await petitionAudience(db, petitionId);
  if (!signersHear || kindsOfTopics([topic]).every((kind) => eventAudience(kind) === 'creator')) {
    return creator !== null && creator !== viewerId && (await follows(db, creator, petitionId, topic)) ? 1 : 0;
  }
  const muted = await db
    .selectFrom('feed_mutes as m')
    .innerJoin('signatures as s', (join) => join.onRef('s.petition_id', '=', 'm.petition_id').onRef('s.user_id', '=', 'm.user_id'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('m.petition_id', '=', petitionId)
    .executeTakeFirstOrThrow();
  const optedOut = await db
    .selectFrom('feed_topic_optouts as o')
    .innerJoin('signatures as s', (join) => join.on('s.petition_id', '=', petitionId).onRef('s.user_id', '=', 'o.user_id'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('o.topic', '=', topic)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('feed_mutes as m').select('m.user_id').whereRef('m.user_id', '=', 'o.user_id').where('m.petition_id', '=', petitionId))),
    )
    .executeTakeFirstOrThrow();
  let reached = input.signatures - Number(muted.n) - Number(optedOut.n);
  const viewerSigned = await db
    .selectFrom('signatures')
    .select('user_id')
    .where('petition_id', '=', petitionId)
    .where('user_id', '=', viewerId)
    .executeTakeFirst();
  if (viewerSigned && (await follows(db, viewerId, petitionId, topic))) reached -= 1;
  return Math.max(0, reached);
}
