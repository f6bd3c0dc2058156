/**
 * The live stream's view of the feed (site/live-publisher.ts): the newest event id, which connected
 * members new events may reach, and a member's unread count. Read from the database, not from this
 * node's memory, so an event recorded on any node reaches every node's streams on its next tick.
 */
import type { Db } from '../db/schema.ts';
import type { UnreadSource } from '../site/live-publisher.ts';
import { latestEventId } from './events.ts';
import { unreadCount } from './member-feed.ts';

/** Members per query: well under both engines' parameter limits. */
const USERS_PER_QUERY = 500;

export function createUnreadSource(db: Db): UnreadSource {
  return {
    latestEventId: () => latestEventId(db),
    unreadCount: (userId) => unreadCount(db, userId),
    async usersReached(afterId, upToId, userIds) {
      const reached = new Set<string>();
      const events = await db
        .selectFrom('petition_events')
        .select('petition_id')
        .distinct()
        .where('id', '>', afterId)
        .where('id', '<=', upToId)
        .execute();
      const petitionIds = events.map((row) => row.petition_id);
      if (!petitionIds.length) return [];
      for (let start = 0; start < userIds.length; start += USERS_PER_QUERY) {
        const chunk = userIds.slice(start, start + USERS_PER_QUERY);
        // Key lookups (petition, member) for each pair: a few new events times the connected members.
        const [signers, creators] = await Promise.all([
          db.selectFrom('signatures').select('user_id').distinct().where('petition_id', 'in', petitionIds).where('user_id', 'in', chunk).execute(),
          db.selectFrom('petitions').select('creator_id').distinct().where('id', 'in', petitionIds).where('creator_id', 'in', chunk).execute(),
        ]);
        for (const row of signers) reached.add(row.user_id);
        for (const row of creators) if (row.creator_id) reached.add(row.creator_id);
      }
      return [...reached];
    },
  };
}
