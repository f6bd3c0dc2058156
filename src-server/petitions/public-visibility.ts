/**
 * What the public may see (docs/moderation.md#what-the-public-sees). A petition under moderation
 * (hidden or rejected) is out of every public read: lists, search, counts, statistics, the home
 * page, the CSV, live counts, the similar-petitions call and the staff queues of responses and
 * debates. Every such read filters with `publiclyVisible`, written once here; only the creator and
 * moderators still see the petition itself (`mayViewModerated`), and the public gets 404, or 410
 * with the reason for a rejection whose reason is not hidden.
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { MODERATION_STATES } from '../../src-shared/domain/moderation-constants.ts';
import { canModerate, type PermissionSubject } from '../../src-shared/rules/permissions.ts';
import type { Database } from '../db/schema.ts';

type PetitionsEb = ExpressionBuilder<Database, 'petitions'>;

/**
 * The condition every public read of petitions carries: no moderation state. Written as "null or
 * none of the states" rather than a bare IS NULL: without statistics on the column (a new column, a
 * young table) PostgreSQL guesses that IS NULL keeps 0.5% of rows and plans every list as if it
 * returned one row; this form it estimates as keeping nearly all of them, which is the truth.
 */
export function publiclyVisible(eb: PetitionsEb): Expression<SqlBool> {
  return eb.or([eb('petitions.moderation_state', 'is', null), eb('petitions.moderation_state', 'not in', [...MODERATION_STATES])]);
}

/**
 * Its exact opposite: the petitions under moderation, a small set read through the partial index of
 * migration 0015 (an IN list implies the index's IS NOT NULL, and is estimated as small).
 */
export function underModeration(eb: PetitionsEb): Expression<SqlBool> {
  return eb('petitions.moderation_state', 'in', [...MODERATION_STATES]);
}

/**
 * The ids of the petitions under moderation that `userId` did not create: a signer no longer hears
 * of them (their notification centre, its unread count and their "Signed" list leave them out until
 * a moderator restores them), while the creator keeps them with the notice
 * (docs/notifications.md#who-receives-what). A small set, read through the same partial index.
 */
export function moderatedForMember(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('petitions')
    .select('petitions.id')
    .where(underModeration)
    .where((eb) => eb.or([eb('petitions.creator_id', 'is', null), eb('petitions.creator_id', '<>', userId)]));
}

export function isPubliclyVisible(row: { moderation_state: string | null }): boolean {
  // The same reading as publiclyVisible's SQL.
  return row.moderation_state === null || !(MODERATION_STATES as readonly string[]).includes(row.moderation_state);
}

/** Who still sees a hidden or rejected petition: its creator and moderators. */
export function mayViewModerated(user: (PermissionSubject & { id: string }) | null | undefined, row: { creator_id: string | null }): boolean {
  if (!user) return false;
  return (row.creator_id !== null && user.id === row.creator_id) || canModerate(user);
}
