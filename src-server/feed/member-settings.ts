/**
 * What a member changes about their notification centre: what they have read, the petitions they
 * stopped hearing about and the topics they switched off (docs/notifications.md#the-api). Every
 * write is keyed by the signed-in member's id.
 */
import { FEED_TOPICS, type FeedTopic } from '../../src-shared/domain/feed-constants.ts';
import type { FeedPreferences, FeedPreferencesPatch, MutedPetitions } from '../../src-shared/domain/feed-schemas.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import type { Db } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { requirePetition } from '../petitions/petition-reads.ts';
import { latestEventId } from './events.ts';
import { isInFeed, readMemberState } from './member-feed.ts';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/**
 * Creates the member's row when missing, then applies `set` (read marker, push switch) and bumps its
 * version: every change of the member's side goes through here, so cached unread counts on any node
 * see it (member-feed.ts).
 */
async function upsertReadState(db: Db, userId: string, set: { read_up_to?: number; push_enabled?: number }, now: Date): Promise<void> {
  const stamp = now.toISOString();
  await db
    .insertInto('feed_read_state')
    .values({ user_id: userId, read_up_to: set.read_up_to ?? 0, push_enabled: set.push_enabled ?? 0, version: 1, updated_at: stamp })
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ ...set, version: eb('feed_read_state.version', '+', 1), updated_at: stamp })))
    .execute();
}

/**
 * The member's web push switch (docs/notifications.md#web-push): on when a device of theirs subscribes,
 * off when their last device goes. Inside the caller's transaction, like every change of their side.
 */
export function writePushSwitch(db: Db, userId: string, on: boolean, now: Date): Promise<void> {
  return upsertReadState(db, userId, { push_enabled: on ? 1 : 0 }, now);
}

/** Marks one of the member's events read; 404 for an id that is not in their feed (someone else's, or none). */
export async function markEventRead(db: Db, userId: string, eventId: number, now: Date): Promise<void> {
  if (!(await isInFeed(db, userId, eventId))) throw new HttpError(404, NOTIFICATION_NOT_FOUND);
  const { readUpTo } = await readMemberState(db, userId);
  if (eventId <= readUpTo) return;
  await db.transaction().execute(async (trx) => {
    // The member's row says whether reads one by one exist (member-feed.ts reads it with the marker).
    await upsertReadState(trx, userId, {}, now);
    await trx
      .insertInto('feed_reads')
      .values({ user_id: userId, event_id: eventId })
      .onConflict((oc) => oc.columns(['user_id', 'event_id']).doNothing())
      .execute();
  });
}

/**
 * Everything up to `upTo` (the newest event the member saw; default: every event so far) is read.
 * The marker never moves back, nor past the newest event that exists (so nothing is read before it happens).
 */
export async function markAllRead(db: Db, userId: string, upTo: number | undefined, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const latest = await latestEventId(trx);
    const { readUpTo } = await readMemberState(trx, userId);
    const marker = Math.max(readUpTo, Math.min(upTo ?? latest, latest));
    await upsertReadState(trx, userId, { read_up_to: marker }, now);
    // Reads one by one below the marker say nothing more.
    await trx.deleteFrom('feed_reads').where('user_id', '=', userId).where('event_id', '<=', marker).execute();
  });
}

export async function readPreferences(db: Db, userId: string): Promise<FeedPreferences> {
  const state = await readMemberState(db, userId);
  const topics = Object.fromEntries(FEED_TOPICS.map((topic) => [topic, !state.topicsOff.includes(topic)])) as Record<FeedTopic, boolean>;
  return { topics, push: state.pushEnabled };
}

export async function updatePreferences(db: Db, userId: string, patch: FeedPreferencesPatch, now: Date): Promise<FeedPreferences> {
  await db.transaction().execute(async (trx) => {
    for (const [topic, on] of Object.entries(patch.topics ?? {})) {
      if (on) {
        await trx.deleteFrom('feed_topic_optouts').where('user_id', '=', userId).where('topic', '=', topic).execute();
      } else {
        await trx
          .insertInto('feed_topic_optouts')
          .values({ user_id: userId, topic })
          .onConflict((oc) => oc.columns(['user_id', 'topic']).doNothing())
          .execute();
      }
    }
    await upsertReadState(trx, userId, patch.push === undefined ? {} : { push_enabled: patch.push ? 1 : 0 }, now);
    // Push off means off on every device: their subscriptions (and queued messages) go (docs/notifications.md#web-push).
    if (patch.push === false) await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
  });
  return readPreferences(db, userId);
}

/** "Stop updates for this petition": any petition that exists (404 otherwise); muting twice is one mute. */
export async function mutePetition(db: Db, userId: string, petitionId: number, now: Date): Promise<void> {
  await requirePetition(db, petitionId);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('feed_mutes')
      .values({ user_id: userId, petition_id: petitionId, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'petition_id']).doNothing())
      .execute();
    await upsertReadState(trx, userId, {}, now);
  });
}

/** Updates again; a petition that was not muted (or does not exist) simply stays unmuted. */
export async function unmutePetition(db: Db, userId: string, petitionId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('feed_mutes').where('user_id', '=', userId).where('petition_id', '=', petitionId).execute();
    await upsertReadState(trx, userId, {}, now);
  });
}

/** The petitions the member muted, most recent first (a member mutes few; capped all the same). */
export async function listMutedPetitions(db: Db, userId: string): Promise<MutedPetitions> {
  const rows = await db
    .selectFrom('feed_mutes as m')
    .innerJoin('petitions as p', 'p.id', 'm.petition_id')
    .select(['p.id', 'p.title', 'p.status', 'm.created_at'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(500)
    .execute();
  return {
    items: rows.map((row) => ({ petition: { id: row.id, title: row.title, status: row.status as PetitionStatus }, mutedAt: row.created_at })),
  };
}
