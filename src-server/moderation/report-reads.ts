/** Reads of members' reports shared by reporting, decisions and the queue. */
import { isReportReason } from '../../src-shared/rules/moderation.ts';
import type { ReportReason } from '../../src-shared/domain/moderation-constants.ts';
import type { Db } from '../db/schema.ts';

/**
 * The advisory lock (db/transaction-locks.ts) on one petition's moderation: reports and decisions
 * about the same petition run one at a time on every node.
 */
export const MODERATION_LOCK = 'petition-moderation';

/** The reasons of a petition's open (unsettled) reports, one per report, through the partial index of migration 0015. */
export async function openReportReasons(db: Db, petitionId: number): Promise<ReportReason[]> {
  const rows = await db.selectFrom('petition_reports').select('reason').where('petition_id', '=', petitionId).where('settled_at', 'is', null).execute();
  return rows.map((row) => row.reason).filter(isReportReason);
}

export async function countOpenReports(db: Db, petitionId: number): Promise<number> {
  const row = await db
    .selectFrom('petition_reports')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('petition_id', '=', petitionId)
    .where('settled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function hasReported(db: Db, petitionId: number, reporterId: string): Promise<boolean> {
  const row = await db.selectFrom('petition_reports').select('id').where('petition_id', '=', petitionId).where('reporter_id', '=', reporterId).executeTakeFirst();
  return row !== undefined;
}

/** A decision settles the open reports: they no longer count towards hiding the petition. */
export async function settleOpenReports(db: Db, petitionId: number, decision: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('petition_reports')
    .set({ settled_at: now.toISOString(), settled_by: decision })
    .where('petition_id', '=', petitionId)
    .where('settled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
