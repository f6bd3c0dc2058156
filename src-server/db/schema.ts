/** Table types for Kysely. Timestamps are ISO-8601 UTC text; JSON columns hold serialised objects. */
import type { Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

export interface UsersTable {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  citizen_rank: number;
  government_rank: number;
  groups_unavailable: number;
  roles_checked_at: string | null;
  created_at: string;
  updated_at: string;
  /** The ROBLOX account's creation (the `created_at` claim, as ISO text); null when never given (migration 0017). */
  account_created_at: string | null;
  /** 1 or 0 when the provider said whether the account is verified, else null (migration 0017). */
  account_verified: number | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a stolen database does not yield live sessions. */
  id_hash: string;
  user_id: string;
  client_kind: string;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  absolute_expires_at: string;
  /** Encrypted OAuth tokens (JSON), readable only by the auth module. */
  tokens: string | null;
}

export interface TermsTable {
  id: Generated<number>;
  name: string;
  start_date: string;
  end_date: string;
  status: string | null;
  created_at: string;
  updated_at: string;
}

export interface PetitionsTable {
  id: Generated<number>;
  title: string;
  description: string;
  creator_name: string;
  creator_id: string | null;
  tags: string;
  category: string;
  term_id: number | null;
  status: string;
  closure_reason: string | null;
  closed_at: string | null;
  signature_count: number;
  government_response: string | null;
  government_response_meta: string | null;
  debate_info: string | null;
  debate_info_meta: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  /** Null: visible; 'hidden' or 'rejected' (migration 0015, docs/moderation.md#states). */
  moderation_state: Generated<string | null>;
  /** A moderator's reason for hiding (null when members' reports hid it). */
  moderation_note: Generated<string | null>;
  /** The rejection reason's code, when rejected. */
  moderation_reason_code: Generated<string | null>;
  moderated_at: Generated<string | null>;
  /** When the petition first reached the response (debate) threshold or queue; set by a trigger (migration 0020). */
  response_threshold_reached_at: Generated<string | null>;
  debate_threshold_reached_at: Generated<string | null>;
}

/** One member's report of one petition (migration 0015); open until a decision settles it. */
export interface PetitionReportsTable {
  id: Generated<number>;
  petition_id: number;
  reporter_id: string;
  reason: string;
  duplicate_of: number | null;
  details: string | null;
  reported_at: string;
  settled_at: string | null;
  /** The decision that settled it: keep, reject or restore. */
  settled_by: string | null;
}

/** The administrator's rejection reasons (migration 0015). */
export interface RejectionReasonsTable {
  code: string;
  title: string;
  public_text: string;
  hidden: number;
  position: number;
  updated_at: string;
}

/** What happened to a petition in moderation, with its creator (migration 0015). */
export interface ModerationEventsTable {
  id: Generated<number>;
  petition_id: number;
  creator_id: string | null;
  /** hidden_by_reports, keep, hide, reject or restore. */
  action: string;
  reason_code: string | null;
  note: string | null;
  actor_id: string | null;
  actor_name: string | null;
  actor_role: string | null;
  at: string;
}

/** A petition closed by its term's completion, until the term reopens it (migration 0007). */
export interface TermClosedPetitionsTable {
  term_id: number;
  petition_id: number;
  /** The closure's stamp: a petition whose closed_at differs was changed by hand since. */
  closed_at: string;
}

/** One row per petition created, kept when the petition is deleted (the daily limit; migration 0008). */
export interface PetitionCreationsTable {
  creator_id: string;
  petition_id: number;
  created_at: string;
}

export interface PetitionTagsTable {
  petition_id: number;
  tag: string;
}

export interface SignaturesTable {
  petition_id: number;
  user_id: string;
  username: string;
  display_name: string;
  signed_at: string;
}

/** A signature staff invalidated: kept out of `signatures`, restorable (migration 0017). */
export interface InvalidatedSignaturesTable {
  petition_id: number;
  user_id: string;
  username: string;
  display_name: string;
  signed_at: string;
  /** The invalidation job that moved it here. */
  job_id: number;
  invalidated_at: string;
}

/** An invalidation or a restore, run in the background chunk by chunk (migration 0017). */
export interface InvalidationJobsTable {
  id: Generated<number>;
  kind: string;
  /** The invalidation's criteria (JSON); null for a restore. */
  criteria: string | null;
  /** For a restore: the invalidation it undoes. */
  restores_job_id: number | null;
  reason: string;
  requested_by: string;
  requested_by_role: string;
  requested_at: string;
  state: string;
  total: number;
  processed: number;
  petitions_changed: number;
  /** Where the next chunk starts (JSON); null before the first. */
  cursor: string | null;
  cancel_requested: number;
  /** The node running it, until lease_until: another node may take it over after that. */
  lease_owner: string | null;
  lease_until: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** For an invalidation: the restore that undid it. */
  restored_by_job_id: number | null;
  last_error: string | null;
  updated_at: string;
}

/** Signatures per petition and minute, as the signing monitor counted them (migration 0017). */
export interface SigningActivityTable {
  petition_id: number;
  /** YYYY-MM-DDTHH:MM (UTC). */
  minute: string;
  signatures: number;
  /** From accounts younger than YOUNG_ACCOUNT_DAYS when they signed. */
  young: number;
  /** The most signatures within any 60 seconds ending in this minute. */
  peak: number;
}

/** A rule a petition tripped, once per rule and UK day (migration 0017). */
export interface SigningAlertsTable {
  petition_id: number;
  rule: string;
  /** YYYY-MM-DD, Europe/London. */
  day: string;
  raised_at: string;
  /** The figures that tripped it (JSON). */
  detail: string;
}

export interface BansTable {
  user_id: string;
  reason: string;
  banned_by: string;
  banned_at: string;
}

export interface SiteSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string;
  actor_role: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: string | null;
  after: string | null;
  /** When the action was applied (the transaction's time). */
  at: string;
  /** When the staff member made it, if earlier (an action from the console's outbox; migration 0016). */
  made_at: string | null;
}

export interface IdempotencyKeysTable {
  actor_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
}

/** The staff chat queue (staff-chat/chat-queue.ts). */
export interface ChatMessagesTable {
  id: Generated<number>;
  event: string;
  payload: string;
  state: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** Who is on which petition now: one row per open console or tab (migration 0020, presence/presence-store.ts). */
export interface StaffPresenceTable {
  user_id: string;
  client_id: string;
  petition_id: number;
  activity: string;
  since: string;
  seen_until: string;
  claimed_until: string | null;
}

export interface LoginAttemptsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  return_to: string | null;
  client_kind: string;
  created_at: string;
  expires_at: string;
}

/** One thing that happened to a petition, for its creator and signers (migration 0014, feed/events.ts). */
export interface PetitionEventsTable {
  id: Generated<number>;
  petition_id: number;
  kind: string;
  /** 'signers' (the creator and every signer) or 'creator'. */
  audience: string;
  /** JSON: the kind's fields (PetitionEventDetailSchema without `kind`). */
  detail: string;
  /** The staff member whose action it was: their own feed leaves it out. Never sent to members. */
  actor_id: string | null;
  /** One event per key per petition (e.g. 'threshold:10'); null for most. */
  dedupe_key: string | null;
  created_at: string;
}

/** A member's read marker and push switch (migration 0014). */
export interface FeedReadStateTable {
  user_id: string;
  /** Every event up to this id is read. */
  read_up_to: number;
  push_enabled: number;
  /** Bumped by every change of the member's side (reads, mutes, topics): cached counts compare it. */
  version: Generated<number>;
  updated_at: string;
}

/** One row (id 1), bumped whenever events are deleted (migration 0014). */
export interface FeedGenerationTable {
  id: number;
  value: number;
}

/** Events read one by one above the member's marker. */
export interface FeedReadsTable {
  user_id: string;
  event_id: number;
}

/** "Stop updates for this petition". */
export interface FeedMutesTable {
  user_id: string;
  petition_id: number;
  created_at: string;
}

/** A topic a member switched off (FEED_TOPICS). */
export interface FeedTopicOptoutsTable {
  user_id: string;
  topic: string;
}

/** A member's device for web push, as its Push API gave it (migration 0019). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: string;
  /** The push service's address for this device: unique, a capability (never shown to anyone else). */
  endpoint: string;
  /** The device's P-256 public key and authentication secret (base64url): what messages are encrypted to. */
  p256dh: string;
  auth: string;
  expires_at: string | null;
  /** The web session that registered it (SHA-256 as sessions.id_hash): signing out removes it. */
  session_hash: string | null;
  created_at: string;
  updated_at: string;
  last_delivered_at: string | null;
}

/** One row (id 1): the last petition event the push queue took in. */
export interface PushStateTable {
  id: number;
  event_cursor: number;
}

/** An event being fanned out to devices, a page of recipients at a time. */
export interface PushFanoutsTable {
  event_id: number;
  /** Recipients up to this user id have their deliveries (null: none yet). */
  after_user_id: string | null;
  /** Free to claim from this instant (a node holding it moves it forward). */
  claimed_until: string;
}

/** One message for one device, deleted once its push service took it. */
export interface PushDeliveriesTable {
  id: Generated<number>;
  event_id: number;
  subscription_id: number;
  /** Sends tried so far (a claim counts one). */
  attempts: Generated<number>;
  /** When it may be sent (again), or while `sending`, when the claim of the node sending it lapses. */
  due_at: string;
  /** 1 while a node has it claimed (a node that died leaves it so: push/delivery.ts). */
  sending: Generated<number>;
  last_error: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  terms: TermsTable;
  petitions: PetitionsTable;
  petition_tags: PetitionTagsTable;
  term_closed_petitions: TermClosedPetitionsTable;
  petition_creations: PetitionCreationsTable;
  signatures: SignaturesTable;
  invalidated_signatures: InvalidatedSignaturesTable;
  invalidation_jobs: InvalidationJobsTable;
  signing_activity: SigningActivityTable;
  signing_alerts: SigningAlertsTable;
  bans: BansTable;
  site_settings: SiteSettingsTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  chat_messages: ChatMessagesTable;
  login_attempts: LoginAttemptsTable;
  petition_reports: PetitionReportsTable;
  rejection_reasons: RejectionReasonsTable;
  moderation_events: ModerationEventsTable;
  petition_events: PetitionEventsTable;
  feed_read_state: FeedReadStateTable;
  feed_generation: FeedGenerationTable;
  feed_reads: FeedReadsTable;
  feed_mutes: FeedMutesTable;
  feed_topic_optouts: FeedTopicOptoutsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_state: PushStateTable;
  push_fanouts: PushFanoutsTable;
  push_deliveries: PushDeliveriesTable;
  staff_presence: StaffPresenceTable;
}

export type PetitionRow = Selectable<PetitionsTable>;
/**
 * A petition as its page reads it: the row and its first signers, a JSON array oldest first in the
 * API's Signer shape. SQLite stores them in the row (`first_signers`, kept by triggers: migrations
 * 0005, 0006); PostgreSQL reads them from the signatures (migration 0027). Not part of PetitionsTable,
 * so no query on PostgreSQL can name a column it does not have (petitions/petition-reads.ts).
 */
export type PetitionPageRow = PetitionRow & { first_signers: string };
export type NewPetitionRow = Insertable<PetitionsTable>;
export type PetitionUpdate = Updateable<PetitionsTable>;
export type TermRow = Selectable<TermsTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type InvalidationJobRow = Selectable<InvalidationJobsTable>;

/** A connection or a transaction: repositories work inside either. */
export type Db = Kysely<Database> | Transaction<Database>;
