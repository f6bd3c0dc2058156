/**
 * Answers a list request: the page and the total. Three things keep it fast on a large table:
 * - the sizes of the set filters (search matches, tag members) are counted first, cheaply, and
 *   decide the plan of the page query (see PlanHints) and, when such a filter stands alone, are the total;
 * - once the site is large (site-scale.ts: 5,000 petitions or more), other totals and each search's match count are kept
 *   for five seconds, and whole pages (they hold nothing specific to the viewer) for two, each page
 *   computed once however many requests ask for it at the same moment: a list that
 *   lags a second or two behind is harmless, while recomputing the same popular pages hundreds of
 *   times a second is not. The UK service makes the same trade with CDN caching of its list pages;
 * - a smaller site always reads afresh, so its lists are exact.
 * A page is kept as the JSON text of the reply: a page of petitions is tens of kilobytes, and
 * serialising the same page again for every request cost more than finding it.
 */
import type { SortOption } from '../../src-shared/domain/constants.ts';
import type { PetitionList, PetitionListRequest } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { toPetition } from './petition-record.ts';
import type { Db } from '../db/schema.ts';
import { createTtlCache } from './ttl-cache.ts';
import {
  countModerated,
  countPetitions,
  filtersFromQuery,
  listPetitionRows,
  pageFromQuery,
  type PetitionFilters,
  type PlanHints,
} from './petition-queries.ts';
import { parseSearchTerms, toFts5Query, type SearchTerms } from './search-terms.ts';
import { fullTextMatchCount, type KeptMatches } from './sql-dialect.ts';

/** Above this many members a set filter is tested while walking the sort index. */
const LARGE_SET = 1_000;
/**
 * PostgreSQL keeps a search's matching ids with its count when there are at most this many: 7 bytes
 * each as text below a million, so at most 70 KB per kept search (docs/operations.md#search-on-postgresql).
 */
const KEPT_MATCH_IDS = 10_000;
const TOTAL_TTL_MS = 5_000;
const PAGE_TTL_MS = 2_000;
const CACHE_ENTRIES = 1_000;

interface SetSizes {
  search: number | null;
  tag: number | null;
  /** PostgreSQL: the search's matching ids (fullTextMatchCount), when kept. */
  keptMatches?: KeptMatches | undefined;
}

interface MatchCount {
  total: number;
  kept?: KeptMatches | undefined;
}

/** Equal keys for requests that must get equal answers (search text is reduced to its words). */
function filtersKey(filters: PetitionFilters): string {
  const terms = parseSearchTerms(filters.search);
  return JSON.stringify([terms ? toFts5Query(terms) : null, filters.status ?? 'all', filters.tag ?? null, filters.term ?? null]);
}

async function tagMemberCount(db: Db, tag: string): Promise<number> {
  const row = await db
    .selectFrom('petition_tags')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('tag', '=', tag)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function createPetitionLister(context: AppContext) {
  const { db, dialect } = context;
  const cachedTotals = createTtlCache<number>(TOTAL_TTL_MS, CACHE_ENTRIES);
  const cachedPages = createTtlCache<string>(PAGE_TTL_MS, CACHE_ENTRIES);
  const cachedMatches = createTtlCache<MatchCount>(TOTAL_TTL_MS, CACHE_ENTRIES);
  const isLargeSite = () => context.siteScale.checkLarge();

  /** Keyed by the full-text query, so every filter combination and page of one search shares it. */
  async function searchMatches(terms: SearchTerms): Promise<MatchCount> {
    const key = toFts5Query(terms);
    const hit = cachedMatches.get(key);
    if (hit !== undefined) return hit;
    const row = (await fullTextMatchCount(dialect, terms, KEPT_MATCH_IDS).execute(db)).rows[0];
    const kept = row?.ids && row.last_id != null ? { ids: row.ids, lastId: row.last_id } : undefined;
    const matches = { total: Number(row?.total ?? 0), kept };
    if (await isLargeSite()) cachedMatches.set(key, matches);
    return matches;
  }

  async function setSizes(filters: PetitionFilters): Promise<SetSizes> {
    const terms = parseSearchTerms(filters.search);
    const search = terms ? await searchMatches(terms) : null;
    const tag = filters.tag ? await tagMemberCount(db, filters.tag) : null;
    return { search: search?.total ?? null, tag, keptMatches: search?.kept };
  }

  async function cachedTotal(filters: PetitionFilters): Promise<number> {
    const key = filtersKey(filters);
    const hit = cachedTotals.get(key);
    if (hit !== undefined) return hit;
    const total = await countPetitions(db, dialect, filters);
    if (await isLargeSite()) cachedTotals.set(key, total);
    return total;
  }

  /** A set filter standing alone: its size less the moderated petitions in it (docs/moderation.md#what-the-public-sees). */
  async function visibleOf(size: number, filters: PetitionFilters, keptMatches: KeptMatches | undefined): Promise<number> {
    const key = `moderated|${filtersKey(filters)}`;
    const hit = cachedTotals.get(key);
    const moderated = hit ?? (await countModerated(db, dialect, filters, keptMatches));
    if (hit === undefined && (await isLargeSite())) cachedTotals.set(key, moderated);
    return size - moderated;
  }

  async function total(filters: PetitionFilters, sizes: SetSizes): Promise<number> {
    const hasStatus = filters.status !== undefined && filters.status !== 'all';
    const hasTerm = filters.term !== undefined;
    if (sizes.search !== null && sizes.tag === null && !hasStatus && !hasTerm) return visibleOf(sizes.search, filters, sizes.keptMatches);
    if (sizes.tag !== null && sizes.search === null && !hasStatus && !hasTerm) return visibleOf(sizes.tag, filters, undefined);
    return cachedTotal(filters);
  }

  async function computePage(query: PetitionListRequest): Promise<PetitionList> {
    const filters = filtersFromQuery(query);
    const page = pageFromQuery(query);
    const sizes = await setSizes(filters);
    const hints: PlanHints = {
      largeSearch: (sizes.search ?? 0) > LARGE_SET,
      largeTag: (sizes.tag ?? 0) > LARGE_SET,
      keptMatches: sizes.keptMatches,
    };
    // Nothing can match an empty set: skip the page query.
    const empty = sizes.search === 0 || sizes.tag === 0;
    const rows = empty ? [] : await listPetitionRows(db, dialect, filters, query.sort as SortOption | undefined, page, hints);
    return { items: rows.map((row) => toPetition(context.signatureCounts.withLive(row))), total: empty ? 0 : await total(filters, sizes), page: page.page, pageSize: page.pageSize };
  }

  /** Pages being computed on a large site: a request for one of them waits for that answer. */
  const pagesInFlight = new Map<string, Promise<string>>();

  /**
   * Kept pages and totals are forgotten as soon as a petition leaves or returns to public view, on
   * this node or any other (moderation-watermark.ts): a hidden petition must not linger in a list.
   */
  let moderationMark: number | null = null;
  async function forgetIfModerated(): Promise<void> {
    const mark = await context.moderationWatermark.current();
    if (mark === moderationMark) return;
    moderationMark = mark;
    cachedTotals.clear();
    cachedPages.clear();
    cachedMatches.clear();
  }

  return {
    /**
     * The page as the JSON text of a PetitionList. On a large site, requests for a page that is
     * being computed share that computation: when a popular page expires, a hundred requests
     * arriving in the same few milliseconds would otherwise each run the same queries at once.
     */
    async listJson(query: PetitionListRequest): Promise<string> {
      const key = `${filtersKey(filtersFromQuery(query))}|${query.sort ?? ''}|${JSON.stringify(pageFromQuery(query))}`;
      if (await isLargeSite()) await forgetIfModerated();
      const hit = cachedPages.get(key) ?? pagesInFlight.get(key);
      if (hit !== undefined) return hit;
      if (!(await isLargeSite())) return JSON.stringify(await computePage(query));
      const computing = computePage(query).then((page) => JSON.stringify(page));
      pagesInFlight.set(key, computing);
      try {
        const json = await computing;
        cachedPages.set(key, json);
        return json;
      } finally {
        pagesInFlight.delete(key);
      }
    },
  };
}

export type PetitionLister = ReturnType<typeof createPetitionLister>;
