/**
 * My petitions (docs/notifications.md#my-petitions): the petitions a member created, or signed,
 * newest first, each with its status, live signature count and the newest event the member would
 * hear of in that role ("Government responded on 3 December 2026"). A petition hidden or rejected by
 * moderation stays in its creator's lists, with the notice as its latest news, and leaves everyone
 * else's Signed list until it is restored (docs/notifications.md#my-petitions). A page is one index range
 * (petitions by creator, or the member's signatures) plus one event lookup per row.
 */
import { sql } from 'kysely';
import {
  MY_PETITIONS_PAGE_SIZE_DEFAULT,
  type MyPetitionList,
} from '../../src-shared/domain/feed-constants.ts';
import type { LatestEvent, MyPetitionsResult } from '../../src-shared/domain/feed-schemas.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { feedEventSummary } from '../../src-shared/rules/feed.ts';
import type { Db } from '../db/schema.ts';
import { moderatedForMember } from '../petitions/public-visibility.ts';
import type { SignatureCounts } from '../petitions/signature-counts.ts';
import { parseDetail } from './events.ts';

interface Row {
  id: number;
  title: string;
  status: string;
  signature_count: number;
  tags: string;
  created_at: string;
  signed_at: string | null;
  muted: number;
  latest_event_id: number | null;
}

/** The newest event of the petition for a signer (signers' kinds) or for its creator (every kind). */
function latestEventId(creator: boolean) {
  return creator
    ? sql<number | null>`(select max(e.id) from petition_events e where e.petition_id = p.id)`
    : sql<number | null>`(select max(e.id) from petition_events e where e.petition_id = p.id and e.audience = 'signers')`;
}

function mutedBy(userId: string) {
  return sql<number>`case when exists (select 1 from feed_mutes m where m.user_id = ${userId} and m.petition_id = p.id) then 1 else 0 end`;
}

async function pageOf(db: Db, userId: string, list: MyPetitionList, limit: number, offset: number): Promise<{ rows: Row[]; total: number }> {
  if (list === 'created') {
    const [rows, total] = await Promise.all([
      db
        .selectFrom('petitions as p')
        .leftJoin('signatures as s', (join) => join.onRef('s.petition_id', '=', 'p.id').on('s.user_id', '=', userId))
        .select(['p.id', 'p.title', 'p.status', 'p.signature_count', 'p.tags', 'p.created_at', 's.signed_at'])
        .select([mutedBy(userId).as('muted'), latestEventId(true).as('latest_event_id')])
        .where('p.creator_id', '=', userId)
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      db.selectFrom('petitions').select((eb) => eb.fn.countAll<number>().as('n')).where('creator_id', '=', userId).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
  // A petition hidden or rejected by moderation leaves the Signed list of everyone but its creator.
  const moderated = moderatedForMember(db, userId);
  // The page's signatures first, then their petitions: on SQLite the member's index entries come by
  // petition and are sorted here (docs/operations.md#the-signatures-table), and sorting whole rows
  // would read every signed petition and its latest event, not only the page's.
  const page = db
    .selectFrom('signatures')
    .select(['petition_id', 'signed_at'])
    .where('user_id', '=', userId)
    .where('petition_id', 'not in', moderated)
    .orderBy('signed_at', 'desc')
    .orderBy('petition_id', 'desc')
    .limit(limit)
    .offset(offset)
    .as('s');
  const [rows, total] = await Promise.all([
    db
      .selectFrom(page)
      .innerJoin('petitions as p', 'p.id', 's.petition_id')
      .select(['p.id', 'p.title', 'p.status', 'p.signature_count', 'p.tags', 'p.created_at', 's.signed_at'])
      .select((eb) => [
        mutedBy(userId).as('muted'),
        // The creator of a petition they also signed hears of every kind.
        eb.case().when('p.creator_id', '=', userId).then(latestEventId(true)).else(latestEventId(false)).end().as('latest_event_id'),
      ])
      .orderBy('s.signed_at', 'desc')
      .orderBy('s.petition_id', 'desc')
      .execute(),
    db
      .selectFrom('signatures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('petition_id', 'not in', moderated)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

async function latestEvents(db: Db, ids: number[]): Promise<Map<number, LatestEvent>> {
  const found = new Map<number, LatestEvent>();
  if (!ids.length) return found;
  const rows = await db.selectFrom('petition_events').select(['id', 'kind', 'detail', 'created_at']).where('id', 'in', ids).execute();
  for (const row of rows) {
    const detail = parseDetail(row.kind, row.detail);
    if (detail) found.set(row.id, { kind: detail.kind, summary: feedEventSummary(detail, row.created_at), at: row.created_at });
  }
  return found;
}

export async function listMyPetitions(
  db: Db,
  counts: SignatureCounts,
  userId: string,
  query: { list: MyPetitionList; page?: number; pageSize?: number },
): Promise<MyPetitionsResult> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? MY_PETITIONS_PAGE_SIZE_DEFAULT;
  const { rows, total } = await pageOf(db, userId, query.list, pageSize, (page - 1) * pageSize);
  const events = await latestEvents(db, rows.flatMap((row) => (row.latest_event_id === null ? [] : [Number(row.latest_event_id)])));
  return {
    list: query.list,
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status as PetitionStatus,
      signatures: counts.live(row.id, row.signature_count),
      tags: JSON.parse(row.tags) as string[],
      created: row.created_at,
      signedAt: row.signed_at,
      muted: Boolean(row.muted),
      latestEvent: row.latest_event_id === null ? null : (events.get(Number(row.latest_event_id)) ?? null),
    })),
    total,
    page,
    pageSize,
  };
}
