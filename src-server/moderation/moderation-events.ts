/**
 * What happened to each petition in moderation (migration 0015): hidden by members' reports, and
 * every decision, with the petition's creator, so a moderator reviewing a case sees the creator's
 * past moderation. Written inside the change's transaction. The audit log records the same staff
 * decisions as staff actions; this table is the case history moderators read.
 */
import { roleLabel } from '../../src-shared/rules/roles.ts';
import type { ModerationDecision } from '../../src-shared/domain/moderation-constants.ts';
import type { Db } from '../db/schema.ts';
import type { Viewer } from '../http/viewer.ts';

export const HIDDEN_BY_REPORTS = 'hidden_by_reports';
export type ModerationEventAction = typeof HIDDEN_BY_REPORTS | ModerationDecision;

export interface ModerationEventRecord {
  petitionId: number;
  creatorId: string | null;
  action: ModerationEventAction;
  reasonCode?: string | null;
  note?: string | null;
  /** Null when members' reports did it. */
  actor: Viewer | null;
  at: Date;
}

export async function recordModerationEvent(db: Db, record: ModerationEventRecord): Promise<void> {
  await db
    .insertInto('moderation_events')
    .values({
      petition_id: record.petitionId,
      creator_id: record.creatorId,
      action: record.action,
      reason_code: record.reasonCode ?? null,
      note: record.note ?? null,
      actor_id: record.actor?.user.id ?? null,
      actor_name: record.actor?.user.displayName ?? null,
      // As the audit log does: the role held at that moment.
      actor_role: record.actor ? roleLabel(record.actor.user) : null,
      at: record.at.toISOString(),
    })
    .execute();
}
