/**
 * Presence and claims in the database (docs/console-team.md#presence): one row per open console or
 * tab, so every node reads every node's staff. Expiry is part of the row (`seen_until`,
 * `claimed_until`): a client that vanishes is gone within PRESENCE_SEEN_MS without anyone
 * cleaning up after it; writers delete the rows that have passed.
 */
import type { PresenceActivity } from '../../src-shared/domain/team-constants.ts';
import { PRESENCE_CLAIM_MS, PRESENCE_SEEN_MS } from '../../src-shared/domain/team-constants.ts';
import type { PresenceEntry } from '../../src-shared/domain/team-schemas.ts';
import { roleLabel } from '../../src-shared/rules/roles.ts';
import type { Db } from '../db/schema.ts';
import { toUser } from '../users/user-repository.ts';

export interface PresenceWrite {
  userId: string;
  clientId: string;
  petitionId: number;
  activity: PresenceActivity;
  /** The writer typed: the claim runs PRESENCE_CLAIM_MS from now. */
  renewClaim: boolean;
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * Records where a client is. Arriving on a petition (or changing activity) starts `since` afresh
 * and, for a writing activity, a claim; a heartbeat on the same spot keeps both and only proves the
 * client is still there, so a form left open without typing loses its claim after PRESENCE_CLAIM_MS.
 */
export async function writePresence(db: Db, write: PresenceWrite, now: Date): Promise<void> {
  const stamp = now.toISOString();
  const existing = await db
    .selectFrom('staff_presence')
    .selectAll()
    .where('user_id', '=', write.userId)
    .where('client_id', '=', write.clientId)
    .executeTakeFirst();
  const sameSpot =
    existing !== undefined && existing.petition_id === write.petitionId && existing.activity === write.activity && existing.seen_until > stamp;
  const claiming = write.activity !== 'viewing';
  const claimedUntil = !claiming ? null : !sameSpot || write.renewClaim ? later(now, PRESENCE_CLAIM_MS) : (existing?.claimed_until ?? null);
  const values = {
    petition_id: write.petitionId,
    activity: write.activity,
    since: sameSpot ? existing.since : stamp,
    seen_until: later(now, PRESENCE_SEEN_MS),
    claimed_until: claimedUntil,
  };
  await db
    .insertInto('staff_presence')
    .values({ user_id: write.userId, client_id: write.clientId, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet(values))
    .execute();
  await db.deleteFrom('staff_presence').where('seen_until', '<=', stamp).execute();
}

/** The client left the petition (or closed): its row goes at once. */
export async function clearPresence(db: Db, userId: string, clientId: string): Promise<void> {
  await db.deleteFrom('staff_presence').where('user_id', '=', userId).where('client_id', '=', clientId).execute();
}

/**
 * Everyone present now, by petition and arrival. A lapsed claim reads as viewing: the person is
 * still there, but others no longer skip the petition for them.
 */
export async function readPresence(db: Db, now: Date, adminUserId: string | undefined): Promise<PresenceEntry[]> {
  const stamp = now.toISOString();
  const rows = await db
    .selectFrom('staff_presence')
    .innerJoin('users', 'users.id', 'staff_presence.user_id')
    .selectAll('users')
    .select([
      'staff_presence.petition_id',
      'staff_presence.activity',
      'staff_presence.since',
      'staff_presence.claimed_until',
    ])
    .where('staff_presence.seen_until', '>', stamp)
    .orderBy('staff_presence.petition_id')
    .orderBy('staff_presence.since')
    .orderBy('users.id')
    .execute();
  return rows.map((row) => {
    const claimLive = row.activity !== 'viewing' && row.claimed_until !== null && row.claimed_until > stamp;
    const user = toUser(row, adminUserId);
    return {
      userId: row.id,
      displayName: row.display_name,
      role: roleLabel(user),
      petitionId: row.petition_id,
      activity: claimLive ? (row.activity as PresenceActivity) : 'viewing',
      since: row.since,
      claimedUntil: claimLive ? row.claimed_until : null,
    };
  });
}
