/**
 * A moderator's decision about one petition (docs/moderation.md#decisions): keep, hide with a
 * reason, reject with a standard reason, or restore. The single call and each item of the bulk call
 * run this, inside their transaction (staff/staff-mutation.ts holds the Idempotency-Key there).
 *
 * The shared rule (src-shared/rules/moderation.ts decisionOutcome) says what the decision does in
 * the petition's present state. A decision that would change nothing answers `unchanged` (nothing
 * written or audited, whatever version the moderator saw); otherwise the moderator's If-Match must
 * name the current version, so a moderator who decided on what another moderator has since changed
 * gets 412 with the petition as it now is, and a refused decision 409 with it too.
 *
 * Moderation only ever writes the four moderation columns (plus version and updated_at): status,
 * signatures, responses and debates stay exactly as they were, which is what restoring brings back.
 */
import { AUDIT_ACTIONS, type AuditAction } from '../../src-shared/domain/audit-actions.ts';
import type { ModerationDecisionParsed } from '../../src-shared/domain/moderation-schemas.ts';
import type { ModerationDecision, ModerationState } from '../../src-shared/domain/moderation-constants.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { MODERATION_ERRORS, decisionOutcome, settlesReports, stateAfter } from '../../src-shared/rules/moderation.ts';
import { writeAudit } from '../audit/audit-log.ts';
import type { AppContext } from '../context.ts';
import type { Db, PetitionUpdate } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import type { Viewer } from '../http/viewer.ts';
import { requirePetition } from '../petitions/petition-reads.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { assertVersion } from '../staff/if-match.ts';
import { savePetitionChange } from '../staff/versioned-petition-write.ts';
import { tellCreator, type CreatorNotice } from './creator-notice.ts';
import { recordModerationEvent } from './moderation-events.ts';
import { REJECTION_REASON_LOCK, findRejectionReason } from './rejection-reasons.ts';
import { MODERATION_LOCK, countOpenReports, settleOpenReports } from './report-reads.ts';

const AUDIT_ACTION_OF: Record<ModerationDecision, AuditAction> = {
  keep: AUDIT_ACTIONS.moderationKeep,
  hide: AUDIT_ACTIONS.moderationHide,
  reject: AUDIT_ACTIONS.moderationReject,
  restore: AUDIT_ACTIONS.moderationRestore,
};

/** What the creator reads when a moderator brings their petition back. */
export const RESTORED_REASON = 'A moderator reviewed it and it is back on the site.';

export interface DecisionResult {
  outcome: 'applied' | 'unchanged';
  petition: Petition;
}

type Deps = Pick<AppContext, 'locks' | 'signatureCounts'>;

/** The moderation columns a decision writes: everything else of the petition is left as it is. */
function moderationChanges(request: ModerationDecisionParsed, now: Date): PetitionUpdate {
  const state: ModerationState | null = stateAfter(request.decision);
  return {
    moderation_state: state,
    moderation_note: request.decision === 'hide' ? request.reason : null,
    moderation_reason_code: request.decision === 'reject' ? request.reasonCode : null,
    moderated_at: state === null ? null : now.toISOString(),
  };
}

export async function applyModerationDecision(
  trx: Db,
  deps: Deps,
  viewer: Viewer,
  petitionId: number,
  request: ModerationDecisionParsed,
  expected: number[] | null,
  now: Date,
  madeAt: Date | null,
): Promise<DecisionResult> {
  await deps.locks.lock(trx, MODERATION_LOCK, String(petitionId));
  const counts = deps.signatureCounts;
  const row = counts.withLive(await requirePetition(trx, petitionId));
  const openReports = await countOpenReports(trx, petitionId);
  const state = row.moderation_state as ModerationState | null;
  const outcome = decisionOutcome({ state, openReports, rejectionCode: row.moderation_reason_code }, request);
  if (outcome.kind === 'unchanged') return { outcome: 'unchanged', petition: toPetition(row) };
  // Another moderator acted since this one looked: 412 with the petition as it is now.
  assertVersion(row, expected);
  if (outcome.kind === 'refused') throw new HttpError(409, outcome.message, { petition: toPetition(row) });

  let rejectionTitle: string | null = null;
  if (request.decision === 'reject') {
    await deps.locks.lock(trx, REJECTION_REASON_LOCK, request.reasonCode);
    const reason = await findRejectionReason(trx, request.reasonCode);
    if (!reason) {
      throw new HttpError(400, MODERATION_ERRORS.rejectionReasonUnknown, { errors: [{ field: 'reasonCode', message: MODERATION_ERRORS.rejectionReasonUnknown }] });
    }
    rejectionTitle = reason.title;
  }
  const saved = await savePetitionChange(trx, row, moderationChanges(request, now), now);
  const after = toPetition(counts.withLive(saved));
  const settled = settlesReports(request.decision) ? await settleOpenReports(trx, petitionId, request.decision, now) : 0;
  await writeAudit(trx, {
    actor: viewer.user,
    action: AUDIT_ACTION_OF[request.decision],
    targetType: 'petition',
    targetId: petitionId,
    before: { ...toPetition(row), openReports },
    after: { ...after, reportsSettled: settled },
    at: now,
    madeAt,
  });
  await recordModerationEvent(trx, {
    petitionId,
    creatorId: row.creator_id,
    action: request.decision,
    reasonCode: request.decision === 'reject' ? request.reasonCode : null,
    note: request.decision === 'hide' ? request.reason : null,
    actor: viewer,
    at: now,
  });
  const notice = creatorNotice(request, state, rejectionTitle);
  // The creator's notice is the transaction's last write (the notification centre asks for that).
  if (notice) await tellCreator(trx, { petitionId, ...notice, actorId: viewer.user.id, at: now });
  return { outcome: 'applied', petition: after };
}

/** What the creator is told: nothing when a visible petition is merely kept (they never knew of the reports). */
function creatorNotice(
  request: ModerationDecisionParsed,
  before: ModerationState | null,
  rejectionTitle: string | null,
): Pick<CreatorNotice, 'kind' | 'reason'> | null {
  switch (request.decision) {
    case 'hide':
      return { kind: 'petition_hidden', reason: request.reason };
    case 'reject':
      return { kind: 'petition_rejected', reason: rejectionTitle ?? request.reasonCode };
    case 'keep':
    case 'restore':
      return before === null ? null : { kind: 'petition_restored', reason: RESTORED_REASON };
  }
}
