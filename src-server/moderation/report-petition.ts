/**
 * A member reports a petition (docs/moderation.md#reporting). One transaction decides everything:
 * who may report (not banned, not the creator, not twice, within the daily limit), records the
 * report and, when the petition's distinct open reports reach REPORTS_TO_HIDE, hides it at once.
 *
 * Exact under concurrency on every node: the member's reports are taken one at a time (advisory
 * lock per member, so the daily count cannot be passed by parallel calls), then the petition's
 * (advisory lock per petition, the one moderators' decisions take too), so exactly one report
 * crosses the threshold and hides the petition; the reports after it find the petition gone (404).
 */
import type { ReportReason } from '../../src-shared/domain/moderation-constants.ts';
import type { ReportReceipt } from '../../src-shared/domain/moderation-schemas.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { londonDayBounds } from '../../src-shared/rules/dates.ts';
import { MODERATION_ERRORS, reportDailyLimitMessage } from '../../src-shared/rules/moderation.ts';
import { canReportPetition } from '../../src-shared/rules/permissions.ts';
import { isBanned } from '../bans/bans-repository.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import type { Viewer } from '../http/viewer.ts';
import { isPubliclyVisible } from '../petitions/public-visibility.ts';
import { enqueueChatMessage } from '../staff-chat/chat-queue.ts';
import { hiddenByReportsMessage } from '../staff-chat/moderation-messages.ts';
import { CHAT_EVENTS } from '../staff-chat/staff-event-messages.ts';
import { tellCreator } from './creator-notice.ts';
import { HIDDEN_BY_REPORTS, recordModerationEvent } from './moderation-events.ts';
import { MODERATION_LOCK, openReportReasons } from './report-reads.ts';

/** What tells the creator their petition was hidden by reports (they are not told who reported it). */
export const HIDDEN_BY_REPORTS_REASON = 'Several members reported it. A moderator will review it.';

export interface ReportInput {
  reason: ReportReason;
  duplicateOf?: number | null | undefined;
  details?: string | null | undefined;
}

export interface ReportOutcome {
  receipt: ReportReceipt;
  /** True when this report hid the petition. */
  hid: boolean;
}

async function reportsToday(db: Db, reporterId: string, now: Date): Promise<number> {
  const { start, end } = londonDayBounds(now);
  const row = await db
    .selectFrom('petition_reports')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('reporter_id', '=', reporterId)
    .where('reported_at', '>=', start.toISOString())
    .where('reported_at', '<', end.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

async function assertDuplicateTarget(db: Db, duplicateOf: number): Promise<void> {
  const target = await db.selectFrom('petitions').select(['id', 'moderation_state']).where('id', '=', duplicateOf).executeTakeFirst();
  if (!target || !isPubliclyVisible(target)) {
    throw new HttpError(400, MODERATION_ERRORS.duplicateNotFound, { errors: [{ field: 'duplicateOf', message: MODERATION_ERRORS.duplicateNotFound }] });
  }
}

export async function reportPetition(context: AppContext, viewer: Viewer, petitionId: number, input: ReportInput): Promise<ReportOutcome> {
  const { reportsToHide, reportsPerDay } = context.config.moderation;
  const reporterId = viewer.user.id;
  const outcome = await context.db.transaction().execute(async (trx): Promise<ReportOutcome> => {
    // Member first, petition second: every path that takes both takes them in this order.
    await context.locks.lock(trx, 'report-member', reporterId);
    await context.locks.lock(trx, MODERATION_LOCK, String(petitionId));
    const now = context.now();
    const petition = await trx
      .selectFrom('petitions')
      .select(['id', 'title', 'creator_id', 'moderation_state'])
      .where('id', '=', petitionId)
      .executeTakeFirst();
    // Hidden and rejected petitions are not there for the public, reporters included.
    if (!petition || !isPubliclyVisible(petition)) throw new HttpError(404, ERRORS.petitionNotFound);
    if (await isBanned(trx, reporterId)) throw new HttpError(403, MODERATION_ERRORS.reportBanned);
    // The route let in only members who may report, so what is left to refuse here is authorship.
    if (!canReportPetition(viewer.user, petition)) throw new HttpError(403, MODERATION_ERRORS.reportOwnPetition);
    const earlier = await trx
      .selectFrom('petition_reports')
      .select('id')
      .where('petition_id', '=', petitionId)
      .where('reporter_id', '=', reporterId)
      .executeTakeFirst();
    if (earlier) throw new HttpError(409, MODERATION_ERRORS.alreadyReported);
    if ((await reportsToday(trx, reporterId, now)) >= reportsPerDay) {
      const wait = Math.max(1, Math.ceil((londonDayBounds(now).end.getTime() - now.getTime()) / 1000));
      throw new HttpError(429, reportDailyLimitMessage(reportsPerDay), {}, { 'retry-after': String(wait) });
    }
    const duplicateOf = input.reason === 'duplicate' ? (input.duplicateOf ?? null) : null;
    if (duplicateOf !== null) await assertDuplicateTarget(trx, duplicateOf);
    const details = input.details?.trim() ? input.details.trim() : null;
    const reportedAt = now.toISOString();
    await trx
      .insertInto('petition_reports')
      .values({ petition_id: petitionId, reporter_id: reporterId, reason: input.reason, duplicate_of: duplicateOf, details, reported_at: reportedAt, settled_at: null, settled_by: null })
      .execute();
    const receipt: ReportReceipt = { petitionId, reason: input.reason, reportedAt };

    const reasons = await openReportReasons(trx, petitionId);
    if (reasons.length < reportsToHide) return { receipt, hid: false };
    await trx
      .updateTable('petitions')
      .set((eb) => ({
        moderation_state: 'hidden',
        moderation_note: null,
        moderation_reason_code: null,
        moderated_at: reportedAt,
        version: eb('version', '+', 1),
        updated_at: reportedAt,
      }))
      .where('id', '=', petitionId)
      .execute();
    await recordModerationEvent(trx, { petitionId, creatorId: petition.creator_id, action: HIDDEN_BY_REPORTS, actor: null, at: now });
    await enqueueChatMessage(trx, {
      event: CHAT_EVENTS.petitionHiddenByReports,
      message: hiddenByReportsMessage({ petition, reasons, now, publicBaseUrl: context.config.publicBaseUrl }),
      now,
    });
    // The creator's notice is the transaction's last write (the notification centre asks for that).
    await tellCreator(trx, { petitionId, kind: 'petition_hidden', reason: HIDDEN_BY_REPORTS_REASON, actorId: null, at: now });
    return { receipt, hid: true };
  });
  if (outcome.hid) {
    context.chatDelivery.nudge();
    context.moderationWatermark.advance();
  }
  return outcome;
}
