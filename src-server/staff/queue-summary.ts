/**
 * The staff queues' sizes and how many of their petitions are due soon or overdue
 * (docs/console-team.md#queue-ageing): membership from the classification SQL, ageing from the
 * shared rule, so the navigation counts and the marks on each row agree.
 */
import type { QueueKind } from '../../src-shared/domain/team-constants.ts';
import { QUEUE_KINDS } from '../../src-shared/domain/team-constants.ts';
import type { QueueSummary } from '../../src-shared/domain/team-schemas.ts';
import { countByAgeing, type QueueTargets } from '../../src-shared/rules/queue-ageing.ts';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { statusFilterSql } from '../petitions/classification-sql.ts';

export const QUEUE_STATUS_FILTERS: Record<QueueKind, 'awaiting_response' | 'awaiting_debate'> = {
  response: 'awaiting_response',
  debate: 'awaiting_debate',
};

/** The clock starts of one queue's petitions (few columns: the summary runs every few seconds for open staff streams). */
async function queueClocks(db: Db, dialect: SqlDialectName, kind: QueueKind) {
  const rows = await db
    .selectFrom('petitions')
    .select(['created_at', 'response_threshold_reached_at', 'debate_threshold_reached_at'])
    .where((eb) => statusFilterSql(eb, dialect, QUEUE_STATUS_FILTERS[kind])!)
    .execute();
  return rows.map((row) => ({
    created: row.created_at,
    responseThresholdReachedAt: row.response_threshold_reached_at,
    debateThresholdReachedAt: row.debate_threshold_reached_at,
  }));
}

export async function readQueueSummary(db: Db, dialect: SqlDialectName, targets: QueueTargets, now: Date): Promise<QueueSummary> {
  const [response, debate] = await Promise.all(
    QUEUE_KINDS.map(async (kind) => countByAgeing(await queueClocks(db, dialect, kind), kind, now.getTime(), targets)),
  );
  return { targets, queues: { response: response!, debate: debate! } };
}
