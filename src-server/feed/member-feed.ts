/**
 * A member's notification centre, read from their side (docs/notifications.md#who-receives-what):
 * the events of the petitions they created or signed, newest first, after their read marker for the
 * unread count. Fan-out on read, in two parts that never overlap:
 *
 *  - signed: the member's signatures (one index range) drive one range of the event index per
 *    petition, keeping the signers' kinds recorded since they signed, except on petitions hidden or
 *    rejected by moderation that the member did not create (docs/notifications.md#who-receives-what);
 *  - created: the member's own petitions (a handful) with every kind, less what the signed part
 *    already has (signers' kinds since the creator's own signature).
 *
 * The event index carries the columns these filters read, so neither part touches the events table
 * itself; the cost follows how many petitions the member follows, never how many signers a petition
 * has (measured: docs/notifications.md#performance). Each shape of query (which topics are off,
 * whether there are reads one by one) is compiled once and kept (db/prepared-query.ts).
 *
 * Unread counts (and which events the first page shows) are kept per node and reused while nothing
 * they depend on changed: the count is read on every page and every stream, events are rare. Three
 * small reads tell: the newest event id and the deletions generation (events added or removed
 * anywhere), the newest moderation event (a petition left or came back to its signers' feeds), the
 * member's version (reads, mutes, topics, on any node) and their signatures' count and id sum (signed
 * or unsigned something). Every writer of what a count depends on moves one of them.
 *
 * Every query is keyed by the signed-in member's id and nothing else the caller sends can widen it:
 * an event id or a `before` cursor only narrows the member's own events.
 */
import type { Compilable, Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { FEED_PAGE_SIZE_DEFAULT, FEED_TOPICS, type FeedTopic, type PetitionEventKind } from '../../src-shared/domain/feed-constants.ts';
import type { FeedItem, FeedPage } from '../../src-shared/domain/feed-schemas.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { feedEventSummary, kindsOfTopics } from '../../src-shared/rules/feed.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import { dialectOf } from '../db/dialect.ts';
import type { Database, Db } from '../db/schema.ts';
import { moderatedForMember } from '../petitions/public-visibility.ts';
import { parseDetail } from './events.ts';

/** What a member has chosen: their read marker, the topics they switched off, reads one by one. */
export interface MemberFeedState {
  readUpTo: number;
  /** Bumped by every change of the member's side (member-settings.ts). */
  version: number;
  topicsOff: FeedTopic[];
  pushEnabled: boolean;
  /** Whether any event above the marker was read one by one (else the unread count need not look). */
  readsAboveMarker: boolean;
}

const memberState = preparedQuery(['userId'], (db, p: { userId: string }) =>
  db
    .selectFrom('feed_read_state')
    .select(['read_up_to', 'push_enabled', 'version'])
    .select((eb) => eb.exists(eb.selectFrom('feed_reads').select('event_id').where('user_id', '=', p.userId)).as('has_reads'))
    .where('user_id', '=', p.userId),
);
const memberOptouts = preparedQuery(['userId'], (db, p: { userId: string }) =>
  db.selectFrom('feed_topic_optouts').select('topic').where('user_id', '=', p.userId),
);

export async function readMemberState(db: Db, userId: string): Promise<MemberFeedState> {
  const [state, optouts] = await Promise.all([memberState(db, { userId }), memberOptouts(db, { userId })]);
  const row = state.rows[0];
  const known = new Set<string>(FEED_TOPICS);
  return {
    readUpTo: Number(row?.read_up_to ?? 0),
    version: Number(row?.version ?? 0),
    topicsOff: optouts.rows.map((r) => r.topic).filter((topic): topic is FeedTopic => known.has(topic)),
    pushEnabled: Boolean(row?.push_enabled),
    // A member with no row has no reads either: marking one read creates the row (member-settings.ts).
    readsAboveMarker: Boolean(row?.has_reads),
  };
}

type EventFilter = { kind: 'unread'; oneByOne: boolean } | { kind: 'before' } | { kind: 'all' } | { kind: 'one' };

/** Placeholders every part takes; `bound` is the marker (unread), the cursor (before) or the event id (one). */
interface PartParams extends Record<string, unknown> {
  userId: string;
  bound: number;
  limit: number;
}

/** The conditions on an event `e` every part applies: not the member's own staff action, no topic switched off, the filter. */
function eventConditions(p: PartParams, hidden: readonly PetitionEventKind[], filter: EventFilter) {
  return (eb: ExpressionBuilder<Database & { e: Database['petition_events'] }, 'e'>) => {
    const conditions: Expression<SqlBool>[] = [eb.or([eb('e.actor_id', 'is', null), eb('e.actor_id', '<>', p.userId)])];
    if (hidden.length) conditions.push(eb('e.kind', 'not in', hidden));
    if (filter.kind === 'unread') {
      conditions.push(eb('e.id', '>', p.bound));
      if (filter.oneByOne) {
        conditions.push(
          eb.not(eb.exists(eb.selectFrom('feed_reads as r').select('r.event_id').where('r.user_id', '=', p.userId).whereRef('r.event_id', '=', 'e.id'))),
        );
      }
    } else if (filter.kind === 'before') conditions.push(eb('e.id', '<', p.bound));
    else if (filter.kind === 'one') conditions.push(eb('e.id', '=', p.bound));
    return eb.and(conditions);
  };
}

/**
 * The signed part: the member's signatures, each driving a range of the event index. On SQLite the
 * CROSS JOIN fixes that order. PostgreSQL's planner would rather hash-join a scan of every event
 * (its estimate of a member's signatures is low), so there each signature gets a LATERAL probe of
 * the index, which for a page also stops at the page's length per petition.
 */
function signedPart(db: Kysely<Database>, postgres: boolean, p: PartParams, hidden: readonly PetitionEventKind[], filter: EventFilter, perPetition: boolean) {
  const notMuted = db.selectFrom('feed_mutes').select('petition_id').where('user_id', '=', p.userId);
  // A petition hidden or rejected by moderation is out of its signers' feeds (not its creator's).
  const moderated = moderatedForMember(db, p.userId);
  if (!postgres) {
    return db
      .selectFrom('signatures as s')
      .crossJoin('petition_events as e')
      .select('e.id')
      .whereRef('e.petition_id', '=', 's.petition_id')
      .where('s.user_id', '=', p.userId)
      .where('s.petition_id', 'not in', notMuted)
      .where('s.petition_id', 'not in', moderated)
      .where('e.audience', '=', 'signers')
      .whereRef('e.created_at', '>=', 's.signed_at')
      .where(eventConditions(p, hidden, filter));
  }
  return db
    .selectFrom('signatures as s')
    .innerJoinLateral(
      (eb) => {
        let events = eb
          .selectFrom('petition_events as e')
          .select('e.id')
          .whereRef('e.petition_id', '=', 's.petition_id')
          .where('e.audience', '=', 'signers')
          .whereRef('e.created_at', '>=', 's.signed_at')
          .where(eventConditions(p, hidden, filter));
        // A LIMIT (a page's length per petition) or OFFSET 0 keeps the planner from flattening the probe into a hash join.
        events = perPetition ? events.orderBy('e.id', 'desc').limit(p.limit) : events.offset(0);
        return events.as('e');
      },
      (join) => join.onTrue(),
    )
    .select('e.id')
    .where('s.user_id', '=', p.userId)
    .where('s.petition_id', 'not in', notMuted)
    .where('s.petition_id', 'not in', moderated);
}

/** The created part: the member's own petitions (a handful), every kind the signed part does not have. */
function createdPart(db: Kysely<Database>, p: PartParams, hidden: readonly PetitionEventKind[], filter: EventFilter) {
  return (
    db
      .selectFrom('petitions as s')
      .crossJoin('petition_events as e')
      .select('e.id')
      .whereRef('e.petition_id', '=', 's.id')
      .where('s.creator_id', '=', p.userId)
      .where('s.id', 'not in', db.selectFrom('feed_mutes').select('petition_id').where('user_id', '=', p.userId))
      // Creator kinds, or anything from before the creator's own signature (the signed part has the rest).
      .where((eb) =>
        eb.or([
          eb('e.audience', '=', 'creator'),
          eb.not(
            eb.exists(
              eb
                .selectFrom('signatures as own')
                .select('own.user_id')
                .whereRef('own.petition_id', '=', 's.id')
                .where('own.user_id', '=', p.userId)
                .whereRef('own.signed_at', '<=', 'e.created_at'),
            ),
          ),
        ]),
      )
      .where(eventConditions(p, hidden, filter))
  );
}

/** Both parts of the member's visible events, as one query of event ids. */
function visibleIds(db: Kysely<Database>, postgres: boolean, p: PartParams, hidden: readonly PetitionEventKind[], filter: EventFilter, perPetition = false) {
  return signedPart(db, postgres, p, hidden, filter, perPetition).unionAll(createdPart(db, p, hidden, filter));
}

type Prepared = ReturnType<typeof preparedQuery<PartParams, { id: number; n?: number }>>;
const shapes = new Map<string, Prepared>();

/** The compiled query for one shape, made on first use. */
function shape(key: string, keys: ('userId' | 'bound' | 'limit')[], build: (db: Kysely<Database>, p: PartParams) => Compilable<unknown>): Prepared {
  let prepared = shapes.get(key);
  if (!prepared) {
    prepared = preparedQuery(keys, build as (db: Kysely<Database>, p: PartParams) => Compilable<{ id: number; n?: number }>);
    shapes.set(key, prepared);
  }
  return prepared;
}

const hiddenKinds = (state: MemberFeedState) => kindsOfTopics(state.topicsOff);

const freshness = preparedQuery(['userId'], (db, p: { userId: string }) =>
  db
    .selectFrom('signatures')
    .select((eb) => [
      eb.fn.countAll<number>().as('signed'),
      eb.fn.coalesce(eb.fn.sum<number>('petition_id'), eb.lit(0)).as('signed_sum'),
      eb.selectFrom('petition_events').select((e) => e.fn.max('id').as('latest')).as('latest'),
      eb.selectFrom('feed_generation').select('value').where('id', '=', 1).as('generation'),
      // Every moderation change (hidden, rejected, restored) adds one: which petitions a signer hears of moved.
      eb.selectFrom('moderation_events').select((m) => m.fn.max('id').as('moderated')).as('moderated'),
    ])
    .where('user_id', '=', p.userId),
);

/** What a member's unread count depends on besides their state row (see the top of this file). */
async function unreadStamp(db: Db, userId: string, member: MemberFeedState): Promise<string> {
  const row = (await freshness(db, { userId })).rows[0];
  return `${row?.latest ?? 0}:${row?.generation ?? 0}:${row?.moderated ?? 0}:${member.version}:${row?.signed ?? 0}:${row?.signed_sum ?? 0}:${member.readUpTo}`;
}

/**
 * What a node keeps per member while the stamp holds: the unread count and the first page's event ids
 * (which events, not what they show: a petition's title and status are read afresh each time).
 */
interface KeptFeed {
  stamp: string;
  count: number;
  firstPage?: { limit: number; ids: number[] };
}

/** Kept per database (tests and the benchmark open several in one process), a bounded number each. */
const keptByDatabase = new WeakMap<object, Map<string, KeptFeed>>();
const KEPT_MEMBERS = 100_000;

/** The member's kept entry if its stamp still holds, else a fresh one holding the new stamp (null inside a transaction). */
async function keptFeed(db: Db, userId: string, member: MemberFeedState): Promise<KeptFeed | null> {
  // Inside a transaction the caller may be about to change what it depends on: no reuse.
  if (db.isTransaction) return null;
  let kept = keptByDatabase.get(db);
  if (!kept) keptByDatabase.set(db, (kept = new Map()));
  const stamp = await unreadStamp(db, userId, member);
  const entry = kept.get(userId);
  if (entry?.stamp === stamp) return entry;
  kept.delete(userId);
  // Oldest out first (a Map keeps insertion order).
  if (kept.size >= KEPT_MEMBERS) kept.delete(kept.keys().next().value!);
  const fresh: KeptFeed = { stamp, count: await countUnread(db, userId, member) };
  kept.set(userId, fresh);
  return fresh;
}

export async function unreadCount(db: Db, userId: string, state?: MemberFeedState): Promise<number> {
  const member = state ?? (await readMemberState(db, userId));
  return (await keptFeed(db, userId, member))?.count ?? countUnread(db, userId, member);
}

async function countUnread(db: Db, userId: string, member: MemberFeedState): Promise<number> {
  const hidden = hiddenKinds(member);
  const filter: EventFilter = { kind: 'unread', oneByOne: member.readsAboveMarker };
  const postgres = dialectOf(db) === 'postgres';
  const query = shape(`unread:${postgres}:${hidden.join(',')}:${filter.oneByOne}`, ['userId', 'bound'], (kdb, p) =>
    kdb.selectNoFrom((eb) => [
      eb
        .selectFrom(signedPart(kdb, postgres, p, hidden, filter, false).as('signed'))
        .select((c) => c.fn.countAll<number>().as('n'))
        .as('signed_n'),
      eb
        .selectFrom(createdPart(kdb, p, hidden, filter).as('created'))
        .select((c) => c.fn.countAll<number>().as('n'))
        .as('created_n'),
    ]),
  );
  const row = (await query(db, { userId, bound: member.readUpTo, limit: 0 })).rows[0] as unknown as { signed_n: number; created_n: number } | undefined;
  return Number(row?.signed_n ?? 0) + Number(row?.created_n ?? 0);
}

interface EventRow {
  id: number;
  petition_id: number;
  kind: string;
  detail: string;
  created_at: string;
  title: string;
  status: string;
}

export async function readFeed(db: Db, userId: string, query: { before?: number; limit?: number }): Promise<FeedPage> {
  const member = await readMemberState(db, userId);
  const limit = query.limit ?? FEED_PAGE_SIZE_DEFAULT;
  const hidden = hiddenKinds(member);
  const filter: EventFilter = query.before === undefined ? { kind: 'all' } : { kind: 'before' };
  // The page's ids first (from the index alone), then only those events' rows and petitions.
  const postgres = dialectOf(db) === 'postgres';
  const pageIds = shape(`page:${postgres}:${hidden.join(',')}:${filter.kind}`, filter.kind === 'before' ? ['userId', 'bound', 'limit'] : ['userId', 'limit'], (kdb, p) =>
    kdb
      .selectFrom(visibleIds(kdb, postgres, p, hidden, filter, true).as('mine'))
      .select('mine.id')
      .orderBy('mine.id', 'desc')
      .limit(p.limit),
  );
  const kept = await keptFeed(db, userId, member);
  const unread = kept?.count ?? (await countUnread(db, userId, member));
  const firstPage = query.before === undefined ? kept?.firstPage : undefined;
  const ids =
    firstPage?.limit === limit
      ? firstPage.ids
      : (await pageIds(db, { userId, bound: query.before ?? 0, limit: limit + 1 })).rows.map((row) => Number(row.id));
  if (kept && query.before === undefined) kept.firstPage = { limit, ids };
  const shown = ids.slice(0, limit);
  const [rows, reads] = shown.length
    ? await Promise.all([
        db
          .selectFrom('petition_events as e')
          .innerJoin('petitions as p', 'p.id', 'e.petition_id')
          .select(['e.id', 'e.petition_id', 'e.kind', 'e.detail', 'e.created_at', 'p.title', 'p.status'])
          .where('e.id', 'in', shown)
          .execute() as Promise<EventRow[]>,
        member.readsAboveMarker
          ? db.selectFrom('feed_reads').select('event_id').where('user_id', '=', userId).where('event_id', 'in', shown).execute()
          : Promise.resolve([]),
      ])
    : [[], []];
  const readOneByOne = new Set(reads.map((row) => Number(row.event_id)));
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const items: FeedItem[] = [];
  for (const id of shown) {
    const row = byId.get(id);
    const detail = row ? parseDetail(row.kind, row.detail) : null;
    if (!row || !detail) continue;
    items.push({
      id,
      petition: { id: row.petition_id, title: row.title, status: row.status as PetitionStatus },
      detail,
      summary: feedEventSummary(detail, row.created_at),
      at: row.created_at,
      read: id <= member.readUpTo || readOneByOne.has(id),
    });
  }
  return { items, unread, nextBefore: ids.length > limit ? (shown.at(-1) ?? null) : null };
}

/** Whether the event is one of the member's visible events (what they may mark read). */
export async function isInFeed(db: Db, userId: string, eventId: number): Promise<boolean> {
  const member = await readMemberState(db, userId);
  const hidden = hiddenKinds(member);
  const postgres = dialectOf(db) === 'postgres';
  const found = shape(`one:${postgres}:${hidden.join(',')}`, ['userId', 'bound'], (kdb, p) => visibleIds(kdb, postgres, p, hidden, { kind: 'one' }));
  return (await found(db, { userId, bound: eventId, limit: 0 })).rows.length > 0;
}
