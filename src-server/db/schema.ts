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
  /** JSON array of the first signers, oldest first, kept by triggers (migration 0005). */
  first_signers: Generated<string>;
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
  at: string;
}

export interface IdempotencyKeysTable {
  actor_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
}

export interface NotificationOutboxTable {
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

export interface LoginAttemptsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  return_to: string | null;
  client_kind: string;
  created_at: string;
  expires_at: string;
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
  bans: BansTable;
  site_settings: SiteSettingsTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  notification_outbox: NotificationOutboxTable;
  login_attempts: LoginAttemptsTable;
}

export type PetitionRow = Selectable<PetitionsTable>;
export type NewPetitionRow = Insertable<PetitionsTable>;
export type PetitionUpdate = Updateable<PetitionsTable>;
export type TermRow = Selectable<TermsTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

/** A connection or a transaction: repositories work inside either. */
export type Db = Kysely<Database> | Transaction<Database>;
