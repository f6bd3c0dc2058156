/**
 * Every column that holds a member's id or name, and what deleting that member's data does to it
 * (docs/privacy.md#deleting-your-data). account-deletion.ts does what this list says;
 * tests/server-api/account-deletion-tables.test.ts reads the live schema of both engines, finds every
 * column named like a user id or a name (and every column holding a test member's id or name), and
 * fails when one is missing here, so a new table cannot be forgotten. It then deletes that member
 * and checks each column: only those `kept` may still hold them.
 */
import type { SqlDialectName } from '../db/dialect.ts';

export type DeletionHandling =
  /** The member's rows go. */
  | 'deleted'
  /** The rows stay without the member's id or name: counted signatures on closed petitions, reports. */
  | 'anonymised'
  /** The value is emptied or replaced ("Deleted member"); the row stays. */
  | 'cleared'
  /** Kept as it is, for the reason given: a record of an act by staff, or of a ban. */
  | 'kept'
  /** Matches the naming pattern but never names a person. */
  | 'not-personal';

export interface UserDataColumn {
  handling: DeletionHandling;
  why: string;
  /** The one engine whose schema has this column; absent: both. */
  onlyOn?: SqlDialectName;
}

const STAFF_RECORD = 'a record of an act by staff (the audit trail that makes staff answerable); kept with the staff member\'s id';

export const USER_DATA_COLUMNS: Readonly<Record<string, UserDataColumn>> = {
  'users.id': { handling: 'deleted', why: 'the member themselves' },
  'users.username': { handling: 'deleted', why: 'the member themselves' },
  'users.display_name': { handling: 'deleted', why: 'the member themselves' },
  'sessions.user_id': { handling: 'deleted', why: 'signed out everywhere; the sealed ROBLOX tokens go with the sessions' },
  'signatures.user_id': { handling: 'anonymised', why: 'removed from open petitions (counts follow), anonymised on closed ones' },
  'signatures.username': { handling: 'anonymised', why: 'as signatures.user_id' },
  'signatures.display_name': { handling: 'anonymised', why: 'as signatures.user_id' },
  'invalidated_signatures.user_id': { handling: 'anonymised', why: 'removed on open petitions, anonymised on closed ones, as counted signatures' },
  'invalidated_signatures.username': { handling: 'anonymised', why: 'as invalidated_signatures.user_id' },
  'invalidated_signatures.display_name': { handling: 'anonymised', why: 'as invalidated_signatures.user_id' },
  'petitions.creator_id': { handling: 'cleared', why: 'the petition stays, created by nobody known' },
  'petitions.creator_name': { handling: 'cleared', why: 'the petition stays, its creator shown as "Deleted member"' },
  'petitions.first_signers': { handling: 'cleared', why: 'written again from the signatures once they are removed or anonymised (PostgreSQL reads them from the signatures)', onlyOn: 'sqlite' },
  'petition_creations.creator_id': { handling: 'deleted', why: "only today's daily limit reads it" },
  'petition_reports.reporter_id': { handling: 'anonymised', why: 'the report still counts towards hiding the petition, by nobody known' },
  'petition_reports.settled_by': { handling: 'not-personal', why: 'the decision that settled the report (keep, reject, restore)' },
  'moderation_events.creator_id': { handling: 'cleared', why: "the petition's moderation history stays, no longer filed under the member" },
  'moderation_events.actor_id': { handling: 'kept', why: STAFF_RECORD },
  'moderation_events.actor_name': { handling: 'kept', why: STAFF_RECORD },
  'petition_events.actor_id': { handling: 'cleared', why: "only kept a staff member's own actions out of their own notifications" },
  'feed_read_state.user_id': { handling: 'deleted', why: "the member's read marker and push switch" },
  'feed_reads.user_id': { handling: 'deleted', why: 'notifications the member read' },
  'feed_mutes.user_id': { handling: 'deleted', why: 'petitions the member stopped updates for' },
  'feed_topic_optouts.user_id': { handling: 'deleted', why: 'kinds of update the member switched off' },
  'push_subscriptions.user_id': { handling: 'deleted', why: "the member's browsers for web push; their queued messages go with them" },
  'push_fanouts.after_user_id': { handling: 'not-personal', why: "a position in a notification's fan-out, deleted when that fan-out ends" },
  'staff_presence.user_id': { handling: 'deleted', why: 'who is on which petition now' },
  'idempotency_keys.actor_id': { handling: 'deleted', why: 'replays of staff writes, with their answers' },
  'idempotency_keys.response_body': { handling: 'deleted', why: 'as idempotency_keys.actor_id' },
  'audit_log.actor_id': { handling: 'kept', why: STAFF_RECORD },
  'audit_log.before': { handling: 'kept', why: STAFF_RECORD },
  'audit_log.after': { handling: 'kept', why: STAFF_RECORD },
  'bans.user_id': { handling: 'kept', why: 'a ban holds for the ROBLOX account, so deleting one\'s data does not lift it' },
  'bans.banned_by': { handling: 'kept', why: STAFF_RECORD },
  'invalidation_jobs.requested_by': { handling: 'kept', why: STAFF_RECORD },
  'invalidation_jobs.criteria': { handling: 'kept', why: `the user ids an invalidation was asked for: ${STAFF_RECORD}` },
  'petitions.government_response_meta': { handling: 'kept', why: `who answered for the government: ${STAFF_RECORD}` },
  'petitions.debate_info_meta': { handling: 'kept', why: `who recorded the debate: ${STAFF_RECORD}` },
  'chat_messages.payload': { handling: 'kept', why: `messages already sent to the staff chat, naming the staff member who acted: ${STAFF_RECORD}` },
};

/** Columns deletion must leave without the member's id or name. */
export function mustNotHoldMember(column: string): boolean {
  const handling = USER_DATA_COLUMNS[column]?.handling;
  return handling !== 'kept' && handling !== 'not-personal';
}
