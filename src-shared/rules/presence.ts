/**
 * Presence and claims as people read them (docs/console-team.md#presence): who else is on a
 * petition, who is writing an answer, and the warning a second writer gets. A claim never blocks
 * anyone: it warns, and the If-Match conflict protects the data (docs/console-outbox.md#conflicts).
 */
import type { PresenceActivity, QueueKind } from '../domain/team-constants.ts';

/** The fields of a presence entry these rules read (the API's PresenceEntry has them all). */
export interface PresenceFacts {
  userId: string;
  displayName: string;
  role: string;
  petitionId: number;
  activity: PresenceActivity;
  since: string;
}

const ACTIVITY_PHRASES: Record<PresenceActivity, string> = {
  viewing: 'is viewing this petition',
  responding: 'is writing a response',
  debating: 'is recording a debate',
};

/** The activity that claims a petition in each queue. */
export const CLAIM_ACTIVITY: Record<QueueKind, PresenceActivity> = { response: 'responding', debate: 'debating' };

/** When the console cannot see colleagues (shown on the queue and petition screens). */
export const PRESENCE_TEXTS = {
  offline: 'Offline: the console cannot see who else is working on petitions, or their claims.',
  unavailable: 'Who else is working on petitions cannot be shown right now.',
} as const;

/** What "next" (Ctrl+Enter) says when it passed over claimed petitions. */
export const SKIPPED_CLAIM_TEXTS = {
  skipped: 'Skipped petitions another minister is writing an answer to.',
  allClaimed: 'Every other petition waiting in this queue is being answered by someone else.',
} as const;

export function isClaim(activity: PresenceActivity): boolean {
  return activity !== 'viewing';
}

/** "Alex Minister is writing a response". */
export function presenceText(entry: Pick<PresenceFacts, 'displayName' | 'activity'>): string {
  return `${entry.displayName} ${ACTIVITY_PHRASES[entry.activity]}`;
}

/**
 * The others on a petition, one entry per person (someone with two tabs shows once, with the
 * strongest activity: a claim before viewing), claims first, then who came first.
 */
export function othersOnPetition<T extends PresenceFacts>(entries: readonly T[], petitionId: number, selfUserId: string | null): T[] {
  const byUser = new Map<string, T>();
  for (const entry of entries) {
    if (entry.petitionId !== petitionId || entry.userId === selfUserId) continue;
    const known = byUser.get(entry.userId);
    if (!known || (isClaim(entry.activity) && !isClaim(known.activity))) byUser.set(entry.userId, entry);
  }
  return [...byUser.values()].sort(
    (a, b) => Number(isClaim(b.activity)) - Number(isClaim(a.activity)) || a.since.localeCompare(b.since),
  );
}

/** The petitions someone else holds a claim on (Ctrl+Enter's "next" skips them). */
export function claimedByOthers(entries: readonly PresenceFacts[], selfUserId: string | null): Set<number> {
  const claimed = new Set<number>();
  for (const entry of entries) if (entry.userId !== selfUserId && isClaim(entry.activity)) claimed.add(entry.petitionId);
  return claimed;
}

/** The warning a second writer reads above the form, or null when nobody else is writing one. */
export function claimWarning(others: readonly PresenceFacts[], activity: PresenceActivity): string | null {
  const writer = others.find((entry) => entry.activity === activity);
  if (!writer) return null;
  const doing = activity === 'debating' ? 'is recording a debate for this petition' : 'is writing a response to this petition';
  const what = activity === 'debating' ? 'record one' : 'write one';
  return (
    `${writer.displayName} (${writer.role}) ${doing}. You can still ${what}: ` +
    'if you both send one, whoever sends second is shown the first and chooses what to keep.'
  );
}
