/**
 * The petition list: filters (search, status, tag, term), the five sorts and paging, as Kysely
 * queries. Every sort ends with the id so that pages never overlap or skip a petition.
 * The orderings follow the indexes of 0001_initial (created_at,id), (title,id) and, for the counts,
 * (signature_band,id) of migrations 0022 (PostgreSQL) and 0024 (SQLite) (see byCount).
 */
import {
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { DEFAULT_SORT, PAGE_SIZE_DEFAULT, type SortOption, type StatusFilter } from '../../src-shared/domain/constants.ts';
import type { PetitionListRequest } from '../../src-shared/domain/schemas.ts';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database, PetitionRow } from '../db/schema.ts';
import { LATE_STAGE_FILTERS, statusFilterSql } from './classification-sql.ts';
import { parseSearchTerms } from './search-terms.ts';
import { fullTextMatch, keptMatch, type KeptMatches } from './sql-dialect.ts';
import { publiclyVisible, underModeration } from './public-visibility.ts';

export interface PetitionFilters {
  search?: string | undefined;
  status?: StatusFilter | undefined;
  tag?: string | undefined;
  term?: number | undefined;
}

/**
 * How to read a set filter (search matches, tag members). A large set is better tested row by row
 * while walking the sort index (stopping after one page) than fetched whole and sorted.
 */
export interface PlanHints {
  largeSearch?: boolean;
  largeTag?: boolean;
  /**
   * Read the matches through the filters' own indexes and sort them, never walking the sort's index:
   * the fewest-signatures page of a late-stage filter (classification-sql.ts, LATE_STAGE_FILTERS).
   */
  sortFetched?: boolean;
  /** PostgreSQL: the search's matches, found already (petition-list.ts keeps them with its count). */
  keptMatches?: KeptMatches | undefined;
}

type PetitionsEb = ExpressionBuilder<Database, 'petitions'>;
type PetitionsQuery<O> = SelectQueryBuilder<Database, 'petitions', O>;

export function filtersFromQuery(query: PetitionListRequest): PetitionFilters {
  return {
    search: query.search,
    status: query.status as StatusFilter | undefined,
    tag: query.tag,
    term: query.term,
  };
}

/**
 * `thresholdsByBand`: counts read a threshold through the band; a page only when it reads its matches
 * whole (sortFetched), since one that walks its order stops after a page (classification-sql.ts, countReaches).
 */
function filterConditions(
  eb: PetitionsEb,
  dialect: SqlDialectName,
  filters: PetitionFilters,
  hints: PlanHints,
  thresholdsByBand: boolean,
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  const terms = parseSearchTerms(filters.search);
  if (terms) conditions.push(hints.keptMatches ? keptMatch(terms, hints.keptMatches, hints.largeSearch) : fullTextMatch(dialect, terms, hints.largeSearch));
  const status = filters.status ? statusFilterSql(eb, dialect, filters.status, thresholdsByBand) : null;
  if (status) conditions.push(status);
  if (filters.tag) {
    // Unary plus: see fullTextMatch. Harmless on PostgreSQL, whose planner needs no hint.
    const id = hints.largeTag ? sql<number>`+petitions.id` : eb.ref('petitions.id');
    conditions.push(eb(id, 'in', eb.selectFrom('petition_tags').select('petition_tags.petition_id').where('petition_tags.tag', '=', filters.tag)));
  }
  if (filters.term !== undefined) conditions.push(eb('petitions.term_id', '=', filters.term));
  return conditions;
}

/**
 * The public list's filters: every condition of the request, and always `publiclyVisible`
 * (public-visibility.ts): a hidden or rejected petition is in no page, no CSV and no id list.
 */
export function applyFilters<O>(
  query: PetitionsQuery<O>,
  dialect: SqlDialectName,
  filters: PetitionFilters,
  hints: PlanHints = {},
): PetitionsQuery<O> {
  const eb = expressionBuilder<Database, 'petitions'>();
  return query.where(eb.and([publiclyVisible(eb), ...filterConditions(eb, dialect, filters, hints, hints.sortFetched === true)]));
}

/**
 * The request's conditions alone, moderated petitions included: for counting, where the public
 * total is this count minus the moderated petitions that match (countPetitions).
 */
function applyMatchFilters<O>(query: PetitionsQuery<O>, dialect: SqlDialectName, filters: PetitionFilters): PetitionsQuery<O> {
  const eb = expressionBuilder<Database, 'petitions'>();
  const conditions = filterConditions(eb, dialect, filters, {}, true);
  // No WHERE at all when unfiltered: SQLite then counts the table from its b-tree pages.
  return conditions.length ? query.where(eb.and(conditions)) : query;
}

/**
 * The indexes hold a band of the count, not the count (migrations 0022 and 0024: so a count written
 * inside its band touches no index), so the count orders start with the band: the index gives the
 * bands in order, the database sorts within them, and the order is the count's exactly (a larger count
 * never has a smaller band) (docs/operations.md#signature-bands).
 */
function byCount<O>(query: PetitionsQuery<O>, direction: 'asc' | 'desc', sortFetched: boolean): PetitionsQuery<O> {
  // Unary plus: the same order, but no index gives it, so the database reads the matches and sorts them.
  const band = sortFetched ? sql<number>`+petitions.signature_band` : sql.ref('petitions.signature_band');
  return query.orderBy(band, direction).orderBy('petitions.signature_count', direction).orderBy('petitions.id', direction);
}

/** `sortFetched`: see PlanHints. */
export function applySort<O>(query: PetitionsQuery<O>, sort: SortOption = DEFAULT_SORT, sortFetched = false): PetitionsQuery<O> {
  switch (sort) {
    case 'most_signatures':
      return byCount(query, 'desc', sortFetched);
    case 'fewest_signatures':
      return byCount(query, 'asc', sortFetched);
    case 'newest':
      return query.orderBy('petitions.created_at', 'desc').orderBy('petitions.id', 'desc');
    case 'oldest':
      return query.orderBy('petitions.created_at', 'asc').orderBy('petitions.id', 'asc');
    case 'alphabetical':
      return query.orderBy('petitions.title', 'asc').orderBy('petitions.id', 'asc');
  }
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

export function pageFromQuery(query: PetitionListRequest): PageRequest {
  return { page: query.page ?? 1, pageSize: query.pageSize ?? PAGE_SIZE_DEFAULT };
}

/** Every petition matching the filters, moderated ones included (see countPetitions). */
export function countQuery(db: Kysely<Database>, dialect: SqlDialectName, filters: PetitionFilters) {
  return applyMatchFilters(db.selectFrom('petitions'), dialect, filters).select((eb) => eb.fn.countAll<number>().as('total'));
}

/**
 * The moderated (hidden or rejected) petitions matching the filters. Driven by the partial index of
 * migration 0015, which holds only them: the set filters are tested per row (the unary plus of the
 * large-set hints), never used to drive the query, so this stays cheap however many petitions match.
 */
export function moderatedCountQuery(db: Kysely<Database>, dialect: SqlDialectName, filters: PetitionFilters, keptMatches?: KeptMatches) {
  const eb = expressionBuilder<Database, 'petitions'>();
  const conditions = filterConditions(eb, dialect, filters, { largeSearch: true, largeTag: true, keptMatches }, true);
  return db
    .selectFrom('petitions')
    .where(eb.and([underModeration(eb), ...conditions]))
    .select((e) => e.fn.countAll<number>().as('total'));
}

export async function countModerated(db: Kysely<Database>, dialect: SqlDialectName, filters: PetitionFilters, keptMatches?: KeptMatches): Promise<number> {
  return Number((await moderatedCountQuery(db, dialect, filters, keptMatches).executeTakeFirstOrThrow()).total);
}

/** From the fewest up, a late-stage filter's petitions are rare: read them and sort (LATE_STAGE_FILTERS). */
function sortsFetched(filters: PetitionFilters, sort: SortOption): boolean {
  return sort === 'fewest_signatures' && filters.status !== undefined && LATE_STAGE_FILTERS.has(filters.status);
}

export function pageQuery(
  db: Kysely<Database>,
  dialect: SqlDialectName,
  filters: PetitionFilters,
  sort: SortOption | undefined,
  { page, pageSize }: PageRequest,
  hints: PlanHints = {},
) {
  const offset = (page - 1) * pageSize;
  const order = sort ?? DEFAULT_SORT;
  if (order === 'most_signatures' || order === 'fewest_signatures') {
    const planned = { ...hints, sortFetched: sortsFetched(filters, order) };
    // The page's ids first, then their rows: the database sorts every row of the bands a page reaches
    // (byCount), and sorting ids and counts rather than whole rows (over a kilobyte each) keeps a deep
    // page's sort small (docs/operations.md#signature-bands).
    const ids = applySort(applyFilters(db.selectFrom('petitions').select('petitions.id'), dialect, filters, planned), sort, planned.sortFetched)
      .limit(pageSize)
      .offset(offset);
    return applySort(db.selectFrom('petitions').selectAll('petitions').where('petitions.id', 'in', ids), sort);
  }
  return applySort(applyFilters(db.selectFrom('petitions').selectAll('petitions'), dialect, filters, hints), sort)
    .limit(pageSize)
    .offset(offset);
}

/** The public total: what matches, less the moderated petitions that match (each count through its own index). */
export async function countPetitions(db: Kysely<Database>, dialect: SqlDialectName, filters: PetitionFilters): Promise<number> {
  const row = await countQuery(db, dialect, filters).executeTakeFirstOrThrow();
  return Number(row.total) - (await countModerated(db, dialect, filters));
}

export async function listPetitionRows(
  db: Kysely<Database>,
  dialect: SqlDialectName,
  filters: PetitionFilters,
  sort: SortOption | undefined,
  page: PageRequest,
  hints: PlanHints = {},
): Promise<PetitionRow[]> {
  return pageQuery(db, dialect, filters, sort, page, hints).execute();
}

/** Only the ids, in list order: the CSV export walks these in chunks instead of holding the connection. */
export async function listPetitionIds(
  db: Kysely<Database>,
  dialect: SqlDialectName,
  filters: PetitionFilters,
  sort: SortOption | undefined,
  limit: number,
): Promise<number[]> {
  const sortFetched = sortsFetched(filters, sort ?? DEFAULT_SORT);
  const rows = await applySort(applyFilters(db.selectFrom('petitions').select('petitions.id'), dialect, filters, { sortFetched }), sort, sortFetched)
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
