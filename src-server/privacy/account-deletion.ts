/**
 * Deleting a member's data (docs/privacy.md#deleting-your-data), asked by the member or by the
 * administrator for them. One transaction does what user-data-columns.ts declares, so a failure
 * leaves everything as it was:
 * - signatures on petitions not closed are removed the way staff invalidation removes them
 *   (integrity/signature-moves.ts): each petition's count, automatic status and first signers
 *   follow in the same transaction; on closed petitions they are anonymised in place (the count stays);
 * - petitions they created stay, their creator shown as "Deleted member";
 * - their reports keep counting, by nobody known; their sessions, notification state, devices,
 *   presence, replays and the user row go; what staff did stays in the audit trail;
 * - every node ends the member's open streams (sessions/session-streams.ts);
 * - one audit entry records the counts, never the member's id or name.
 * Their ROBLOX authorizations are revoked first, best effort, as signing out does.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { DELETED_MEMBER_NAME } from '../../src-shared/domain/privacy-constants.ts';
import type { AccountDeletionResult } from '../../src-shared/domain/privacy-schemas.ts';
import { writeAudit, type AuditActor } from '../audit/audit-log.ts';
import { revokeInTime, type SessionTokenKeeper } from '../auth/session-tokens.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { lockPetitions, removeSignatures, type MoveScope } from '../integrity/signature-moves.ts';
import { anonymiseSignatures, newAnonymousUserId, refreshFirstSigners } from './anonymous-signers.ts';

/** Petitions locked per statement, well under both engines' parameter limits. */
const IDS_PER_QUERY = 500;

export type DeletionContext = Pick<AppContext, 'db' | 'dialect' | 'signatureCounts' | 'sessionStreams' | 'now'>;

export interface DeletionRequest {
  userId: string;
  /** Who is recorded as acting: the administrator, or the system for a member's own request. */
  actor: AuditActor;
  requestedBy: 'member' | 'administrator';
}

type Counts = Omit<AccountDeletionResult, 'message'>;

const deletedMemberName = () => DELETED_MEMBER_NAME;

/**
 * Locks, at once and in ascending id order as signing batches do, every petition this deletion
 * writes: those the member has a signature row on and those they created (locking the created ones
 * later, out of order, could deadlock with a signing batch on PostgreSQL). Returns the signed ones.
 */
async function lockMemberPetitions(scope: MoveScope, userId: string): Promise<{ id: number; status: string }[]> {
  const { trx } = scope;
  const ids = new Set<number>();
  for (const table of ['signatures', 'invalidated_signatures'] as const) {
    const rows = await trx.selectFrom(table).select('petition_id').where('user_id', '=', userId).execute();
    for (const row of rows) ids.add(row.petition_id);
  }
  const signed = new Set(ids);
  for (const row of await trx.selectFrom('petitions').select('id').where('creator_id', '=', userId).execute()) ids.add(row.id);
  const sorted = [...ids].sort((a, b) => a - b);
  const petitions: { id: number; status: string }[] = [];
  for (let start = 0; start < sorted.length; start += IDS_PER_QUERY) {
    const locked = await lockPetitions(scope, sorted.slice(start, start + IDS_PER_QUERY));
    if (!locked.length) continue;
    // Read after the lock: a closure committed meanwhile decides which way each signature goes.
    petitions.push(...(await trx.selectFrom('petitions').select(['id', 'status']).where('id', 'in', locked).orderBy('id').execute()));
  }
  return petitions.filter((petition) => signed.has(petition.id));
}

async function handleSignatures(scope: MoveScope, userId: string): Promise<Pick<Counts, 'signaturesRemoved' | 'signaturesAnonymised'>> {
  const { trx } = scope;
  let signaturesRemoved = 0;
  let signaturesAnonymised = 0;
  for (const petition of await lockMemberPetitions(scope, userId)) {
    const row = { user_id: userId, username: '', display_name: '' };
    if (petition.status === 'closed') {
      signaturesAnonymised += await anonymiseSignatures(trx, scope.dialect, 'signatures', petition.id, [row], deletedMemberName);
      await anonymiseSignatures(trx, scope.dialect, 'invalidated_signatures', petition.id, [row], deletedMemberName);
      await refreshFirstSigners(trx, petition.id);
    } else {
      signaturesRemoved += await removeSignatures(scope, petition.id, [userId]);
      await trx.deleteFrom('invalidated_signatures').where('petition_id', '=', petition.id).where('user_id', '=', userId).execute();
    }
  }
  return { signaturesRemoved, signaturesAnonymised };
}

/** Everything else that names the member (user-data-columns.ts); returns how many petitions they created. */
async function handleTheRest(trx: Transaction<Database>, userId: string): Promise<number> {
  const created = await trx
    .updateTable('petitions')
    .set({ creator_id: null, creator_name: DELETED_MEMBER_NAME })
    .where('creator_id', '=', userId)
    .executeTakeFirst();
  await trx.updateTable('moderation_events').set({ creator_id: null }).where('creator_id', '=', userId).execute();
  await trx.updateTable('petition_events').set({ actor_id: null }).where('actor_id', '=', userId).execute();
  const reports = await trx.selectFrom('petition_reports').select('id').where('reporter_id', '=', userId).execute();
  for (const report of reports) {
    await trx.updateTable('petition_reports').set({ reporter_id: newAnonymousUserId() }).where('id', '=', report.id).execute();
  }
  await trx.deleteFrom('petition_creations').where('creator_id', '=', userId).execute();
  for (const table of ['feed_read_state', 'feed_reads', 'feed_mutes', 'feed_topic_optouts', 'push_subscriptions', 'staff_presence', 'sessions'] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute();
  }
  await trx.deleteFrom('idempotency_keys').where('actor_id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  return Number(created.numUpdatedRows);
}

/** Revokes the member's ROBLOX authorizations, one per session, at once; a failure is logged and deletion goes on. */
export async function revokeMemberTokens(context: Pick<AppContext, 'db'>, keeper: SessionTokenKeeper, userId: string, log: FastifyBaseLogger): Promise<void> {
  const sessions = await context.db.selectFrom('sessions').select('id_hash').where('user_id', '=', userId).execute();
  await Promise.all(
    sessions.map((session) =>
      revokeInTime(keeper, session.id_hash).catch((error: unknown) => log.warn({ err: error }, 'could not revoke a deleted member\'s Roblox refresh token')),
    ),
  );
}

/** Deletes the member's data; null when there is no such member (already deleted, or never signed in). */
export async function deleteMemberData(context: DeletionContext, request: DeletionRequest): Promise<Counts | null> {
  const undo: (() => void)[] = [];
  const now = context.now();
  try {
    const counts = await context.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select('id').where('id', '=', request.userId).executeTakeFirst();
      if (!user) return null;
      const scope: MoveScope = { trx, dialect: context.dialect, counts: context.signatureCounts, undo, now };
      const signatures = await handleSignatures(scope, request.userId);
      const petitionsKept = await handleTheRest(trx, request.userId);
      const result: Counts = { ...signatures, petitionsKept };
      await context.sessionStreams.announce(trx, now);
      await writeAudit(trx, {
        actor: request.actor,
        action: AUDIT_ACTIONS.accountDelete,
        // Without personal data: no target id, only what was done and at whose request.
        targetType: 'account',
        targetId: null,
        before: null,
        after: { requestedBy: request.requestedBy, ...result },
        at: now,
        // Made online, never queued in the console's outbox.
        madeAt: null,
      });
      return result;
    });
    if (counts) await context.sessionStreams.check();
    return counts;
  } catch (error) {
    // The transaction rolled back: put the in-memory counts back as they were, newest first.
    for (const step of undo.reverse()) step();
    throw error;
  }
}
