/**
 * The moderation queue (docs/moderation.md#the-queue): reported and hidden petitions, most open
 * reports first, or the rejected ones, newest first; each as a case a moderator can decide on at
 * once: its reports with their reasons and texts, the creator (and whether they are banned), the
 * creator's other petitions and the past moderation of this petition and of the creator's others.
 */
import {
  MODERATION_CASE_HISTORY_MAX,
  MODERATION_CASE_OTHER_PETITIONS_MAX,
  MODERATION_CASE_REPORTS_MAX,
  MODERATION_QUEUE_PAGE_SIZE,
  type ModerationQueueView,
  type ModerationState,
} from '../../src-shared/domain/moderation-constants.ts';
import type {
  ModerationCase,
  ModerationHistoryEntry,
  ModerationQueue,
  ModerationReport,
} from '../../src-shared/domain/moderation-schemas.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { isReportReason } from '../../src-shared/rules/moderation.ts';
import { findBan } from '../bans/bans-repository.ts';
import type { Db, PetitionRow } from '../db/schema.ts';
import { toPetition } from '../petitions/petition-record.ts';
import type { SignatureCounts } from '../petitions/signature-counts.ts';
import { rejectionOf } from './rejection-reasons.ts';
import { countOpenReports } from './report-reads.ts';

type Counts = Pick<SignatureCounts, 'withLive'>;

interface ReviewEntry {
  id: number;
  openReports: number;
  /** When the case began: its oldest open report, or when it was hidden. */
  since: string;
}

/** Every petition to review, most open reports first, then the longest waiting. */
async function reviewOrder(db: Db): Promise<ReviewEntry[]> {
  const reported = await db
    .selectFrom('petition_reports')
    .select(['petition_id', (eb) => eb.fn.countAll<number>().as('open'), (eb) => eb.fn.min('reported_at').as('first')])
    .where('settled_at', 'is', null)
    .groupBy('petition_id')
    .execute();
  const hidden = await db.selectFrom('petitions').select(['id', 'moderated_at']).where('moderation_state', '=', 'hidden').execute();
  const entries = new Map<number, ReviewEntry>();
  for (const row of reported) entries.set(row.petition_id, { id: row.petition_id, openReports: Number(row.open), since: String(row.first) });
  for (const row of hidden) {
    const entry = entries.get(row.id);
    const since = row.moderated_at ?? '';
    if (entry) entry.since = entry.since < since ? entry.since : since;
    else entries.set(row.id, { id: row.id, openReports: 0, since });
  }
  return [...entries.values()].sort((a, b) => b.openReports - a.openReports || (a.since < b.since ? -1 : a.since > b.since ? 1 : a.id - b.id));
}

export async function queueCounts(db: Db): Promise<ModerationQueue['counts']> {
  const states = await db
    .selectFrom('petitions')
    .select(['moderation_state', (eb) => eb.fn.countAll<number>().as('total')])
    .where('moderation_state', 'is not', null)
    .groupBy('moderation_state')
    .execute();
  const byState = new Map(states.map((row) => [row.moderation_state, Number(row.total)]));
  const reported = await db
    .selectFrom('petitions')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('moderation_state', 'is', null)
    .where('id', 'in', (eb) => eb.selectFrom('petition_reports').select('petition_id').where('settled_at', 'is', null))
    .executeTakeFirstOrThrow();
  return { reported: Number(reported.total), hidden: byState.get('hidden') ?? 0, rejected: byState.get('rejected') ?? 0 };
}

export async function moderationQueue(
  db: Db,
  counts: Counts,
  query: { view?: ModerationQueueView | undefined; page?: number | undefined; pageSize?: number | undefined },
): Promise<ModerationQueue> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? MODERATION_QUEUE_PAGE_SIZE;
  const offset = (page - 1) * pageSize;
  let ids: number[];
  let total: number;
  if ((query.view ?? 'review') === 'review') {
    const order = await reviewOrder(db);
    total = order.length;
    ids = order.slice(offset, offset + pageSize).map((entry) => entry.id);
  } else {
    const rejected = db.selectFrom('petitions').where('moderation_state', '=', 'rejected');
    total = Number((await rejected.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
    const rows = await rejected.select('id').orderBy('moderated_at', 'desc').orderBy('id', 'desc').limit(pageSize).offset(offset).execute();
    ids = rows.map((row) => row.id);
  }
  const items: ModerationCase[] = [];
  for (const id of ids) {
    const found = await moderationCase(db, counts, id);
    if (found) items.push(found);
  }
  return { items, total, page, pageSize, counts: await queueCounts(db) };
}

async function reportsOf(db: Db, petitionId: number): Promise<{ reports: ModerationReport[]; total: number }> {
  const rows = await db
    .selectFrom('petition_reports')
    .leftJoin('users', 'users.id', 'petition_reports.reporter_id')
    .leftJoin('petitions as duplicate', 'duplicate.id', 'petition_reports.duplicate_of')
    .select([
      'petition_reports.id',
      'petition_reports.reason',
      'petition_reports.duplicate_of',
      'duplicate.title as duplicate_title',
      'petition_reports.details',
      'petition_reports.reporter_id',
      'users.display_name',
      'petition_reports.reported_at',
      'petition_reports.settled_at',
    ])
    .where('petition_reports.petition_id', '=', petitionId)
    .orderBy('petition_reports.id', 'desc')
    .limit(MODERATION_CASE_REPORTS_MAX)
    .execute();
  const total = await db
    .selectFrom('petition_reports')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('petition_id', '=', petitionId)
    .executeTakeFirstOrThrow();
  const reports = rows.flatMap((row): ModerationReport[] =>
    isReportReason(row.reason)
      ? [
          {
            id: row.id,
            reason: row.reason,
            duplicateOf: row.duplicate_of === null ? null : { id: row.duplicate_of, title: row.duplicate_title ?? null },
            details: row.details,
            reporter: { id: row.reporter_id, name: row.display_name ?? row.reporter_id },
            reportedAt: row.reported_at,
            open: row.settled_at === null,
          },
        ]
      : [],
  );
  return { reports, total: Number(total.total) };
}

async function historyOf(db: Db, row: PetitionRow): Promise<ModerationHistoryEntry[]> {
  const rows = await db
    .selectFrom('moderation_events')
    .innerJoin('petitions', 'petitions.id', 'moderation_events.petition_id')
    .select([
      'moderation_events.id',
      'moderation_events.petition_id',
      'petitions.title',
      'moderation_events.action',
      'moderation_events.reason_code',
      'moderation_events.note',
      'moderation_events.actor_id',
      'moderation_events.actor_name',
      'moderation_events.actor_role',
      'moderation_events.at',
    ])
    .where((eb) =>
      row.creator_id === null
        ? eb('moderation_events.petition_id', '=', row.id)
        : eb.or([eb('moderation_events.petition_id', '=', row.id), eb('moderation_events.creator_id', '=', row.creator_id)]),
    )
    .orderBy('moderation_events.id', 'desc')
    .limit(MODERATION_CASE_HISTORY_MAX)
    .execute();
  return rows.map((event) => ({
    id: event.id,
    petitionId: event.petition_id,
    petitionTitle: event.title,
    action: event.action as ModerationHistoryEntry['action'],
    reasonCode: event.reason_code,
    note: event.note,
    actor: event.actor_id === null ? null : { id: event.actor_id, name: event.actor_name ?? event.actor_id, role: event.actor_role ?? '' },
    at: event.at,
  }));
}

/** One petition as a moderator reviews it; null when it does not exist. */
export async function moderationCase(db: Db, counts: Counts, petitionId: number): Promise<ModerationCase | null> {
  const stored = await db.selectFrom('petitions').selectAll().where('id', '=', petitionId).executeTakeFirst();
  if (!stored) return null;
  const row = counts.withLive(stored);
  const { reports, total } = await reportsOf(db, petitionId);
  const ban = row.creator_id === null ? null : await findBan(db, row.creator_id);
  const others =
    row.creator_id === null
      ? []
      : await db
          .selectFrom('petitions')
          .select(['id', 'title', 'status', 'signature_count', 'created_at', 'moderation_state'])
          .where('creator_id', '=', row.creator_id)
          .where('id', '<>', row.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(MODERATION_CASE_OTHER_PETITIONS_MAX)
          .execute();
  const rejection = await rejectionOf(db, row);
  return {
    petition: toPetition(row),
    openReports: await countOpenReports(db, petitionId),
    reports,
    totalReports: total,
    rejection,
    creator: { id: row.creator_id, name: row.creator_name, banned: ban !== null, banReason: ban?.reason ?? null },
    creatorPetitions: others.map((other) => ({
      id: other.id,
      title: other.title,
      status: other.status as PetitionStatus,
      signatures: other.signature_count,
      created: other.created_at,
      moderationState: other.moderation_state as ModerationState | null,
    })),
    history: await historyOf(db, row),
  };
}
