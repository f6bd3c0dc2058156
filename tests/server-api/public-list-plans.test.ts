/**
 * The list's speed-ups on a large site must not change what it answers: query-plan hints give the
 * same rows, the classification indexes are used, and caching only applies to a large site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SORT, SORT_OPTIONS, TAGS, type SortOption } from '../../src-shared/domain/constants.ts';
import type { PetitionList } from '../../src-shared/domain/schemas.ts';
import type { NewPetitionRow } from '../../src-server/db/schema.ts';
import {
  countPetitions,
  countQuery,
  listPetitionIds,
  listPetitionRows,
  moderatedCountQuery,
  pageQuery,
  type PetitionFilters,
} from '../../src-server/petitions/petition-queries.ts';
import { parseSearchTerms } from '../../src-server/petitions/search-terms.ts';
import { fullTextMatchCount, type KeptMatches } from '../../src-server/petitions/sql-dialect.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { queryPlan } from '../support/query-plan.ts';
import { insertPetition } from './public-test-data.ts';

const WORDS = ['river', 'school', 'library', 'railway', 'harbour', 'castle', 'museum', 'forest'];
const STATUSES = ['open', 'open', 'open', 'awaiting_government_response', 'government_response', 'awaiting_debate_in_parliament', 'debated_in_parliament', 'closed'];
const PETITIONS = 6_000;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  const db = api.context.db;
  const rows: NewPetitionRow[] = [];
  for (let i = 0; i < PETITIONS; i += 1) {
    const tags = [TAGS[i % TAGS.length]!, TAGS[(i * 7) % TAGS.length]!].filter((tag, index, all) => all.indexOf(tag) === index);
    rows.push({
      title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} petition ${i}`,
      description: `About the ${WORDS[(i * 5) % WORDS.length]} and the ${i % 50 === 0 ? 'lighthouse' : 'town'} in detail.`,
      creator_name: 'Bulk',
      creator_id: '1',
      tags: JSON.stringify(tags),
      category: 'General',
      term_id: null,
      status: STATUSES[i % STATUSES.length]!,
      closure_reason: null,
      closed_at: null,
      // Many ties on purpose: the id must break them the same way in every plan.
      signature_count: (i * 37) % 60,
      government_response: i % 11 === 0 ? 'A response.' : null,
      government_response_meta: null,
      debate_info: i % 13 === 0 ? JSON.stringify({ status: i % 2 ? 'debated' : 'cancelled', date: null, location: 'Westminster Hall', hansardLink: null, notDebatedReason: null }) : null,
      debate_info_meta: null,
      version: 1,
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      updated_at: '2026-01-01T00:00:00.000Z',
    });
  }
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 250) {
      const inserted = await trx.insertInto('petitions').values(rows.slice(i, i + 250)).returning(['id', 'tags']).execute();
      await trx
        .insertInto('petition_tags')
        .values(inserted.flatMap((row) => (JSON.parse(row.tags) as string[]).map((tag) => ({ petition_id: row.id, tag }))))
        .execute();
    }
  });
});

afterAll(async () => {
  await api.close();
});

const COMBINATIONS: PetitionFilters[] = [
  { search: 'river' },
  { search: 'riv' },
  { search: 'lighthouse' },
  { search: 'school castle' },
  { tag: 'Budget' },
  { tag: 'Business', search: 'castle' },
  { tag: 'Laws', status: 'open' },
  { search: 'museum', status: 'with_response' },
];

/** PostgreSQL: a search's matching ids as the list keeps them with its count (petition-list.ts). */
async function keptMatchesOf(search: string | undefined): Promise<KeptMatches | undefined> {
  const terms = parseSearchTerms(search);
  if (api.context.dialect !== 'postgres' || !terms) return undefined;
  const row = (await fullTextMatchCount('postgres', terms, PETITIONS).execute(api.context.db)).rows[0]!;
  expect(row.ids).toMatch(/^\{\d+(,\d+)*\}$/);
  return { ids: row.ids!, lastId: row.last_id! };
}

describe('plan hints', () => {
  it.each(COMBINATIONS)('walking the sort index gives the same pages as fetching and sorting: %j', async (filters) => {
    const db = api.context.db;
    const keptMatches = await keptMatchesOf(filters.search);
    for (const { value: sort } of SORT_OPTIONS) {
      for (const page of [1, 3]) {
        const request = { page, pageSize: 25 };
        const plain = await listPetitionRows(db, api.context.dialect, filters, sort as SortOption, request);
        const hinted = await listPetitionRows(db, api.context.dialect, filters, sort as SortOption, request, { largeSearch: true, largeTag: true });
        expect(hinted.map((r) => r.id), `${sort} page ${page}`).toEqual(plain.map((r) => r.id));
        if (keptMatches === undefined) continue;
        for (const hints of [{ keptMatches }, { largeSearch: true, largeTag: true, keptMatches }]) {
          const kept = await listPetitionRows(db, api.context.dialect, filters, sort as SortOption, request, hints);
          expect(kept.map((r) => r.id), `${sort} page ${page}, ${JSON.stringify(Object.keys(hints))}`).toEqual(plain.map((r) => r.id));
        }
      }
    }
  });

  it.each(COMBINATIONS)('the list endpoint answers exactly what the plain queries answer: %j', async (filters) => {
    const params = new URLSearchParams(Object.entries(filters).map(([k, v]) => [k, String(v)]));
    const body = (await api.request({ url: `/api/petitions?${params}&pageSize=30` })).json<PetitionList>();
    const plain = await listPetitionRows(api.context.db, api.context.dialect, filters, undefined, { page: 1, pageSize: 30 });
    expect(body.items.map((p) => p.id)).toEqual(plain.map((r) => r.id));
    expect(body.total).toBe(await countPetitions(api.context.db, api.context.dialect, filters));
    expect(body.total).toBeGreaterThan(0);
  });
});

describe('a search with many matches', () => {
  it('walks the sort index and looks each row up in the matches, instead of fetching and sorting every match', async () => {
    const { db, dialect } = api.context;
    const hinted = pageQuery(db, dialect, { search: 'river' }, 'most_signatures', { page: 1, pageSize: 20 }, { largeSearch: true });
    const plan = await queryPlan(db, dialect, hinted.compile());
    expect(plan).toContain('petitions_signature_band');
    // PostgreSQL looks rows up in the matches, made one hashed set while they fit (sql-dialect.ts), rather than joining them.
    if (dialect === 'postgres') expect(plan).toContain('hashed SubPlan');
  });

  it('PostgreSQL: the walked rows are tested with a correlated EXISTS, so matches too many to hash are looked up by key, never rescanned per row', async () => {
    const { db, dialect } = api.context;
    const hinted = pageQuery(db, dialect, { search: 'river' }, 'most_signatures', { page: 1, pageSize: 20 }, { largeSearch: true }).compile().sql;
    // The fallback needs PostgreSQL to expect more matches than its hash memory holds (about 260,000 by default), which
    // a test's data cannot make it expect; so this holds the form, and docs/operations.md#search-on-postgresql the measurement.
    if (dialect === 'sqlite') expect(hinted).toContain('+petitions.id IN');
    else expect(hinted).toContain('(EXISTS (SELECT 1 FROM petitions_tsv WHERE petitions_tsv.petition_id = petitions.id AND');
  });

  it('PostgreSQL keeps the matching ids, and a page then tests membership in them without searching again; SQLite keeps only the count', async () => {
    const { db, dialect } = api.context;
    const terms = parseSearchTerms('river')!;
    const { total, ids, last_id: lastId } = (await fullTextMatchCount(dialect, terms, PETITIONS).execute(db)).rows[0]!;
    expect(Number(total)).toBeGreaterThan(100);
    if (dialect === 'sqlite') {
      expect(ids).toBeUndefined();
      return;
    }
    expect(ids!.split(',')).toHaveLength(Number(total));
    const none = (await fullTextMatchCount(dialect, terms, Number(total) - 1).execute(db)).rows[0]!;
    expect(none.ids).toBeNull();
    const keptMatches = { ids: ids!, lastId: lastId! };
    const kept = pageQuery(db, dialect, { search: 'river' }, 'most_signatures', { page: 1, pageSize: 20 }, { largeSearch: true, keptMatches });
    const plan = await queryPlan(db, dialect, kept.compile());
    // The text index is not searched; only a petition created since is looked up, by its id.
    expect(plan).toContain('petitions_signature_band');
    expect(plan).not.toContain('petitions_tsv_document');
    expect(plan).toContain('petitions_tsv_pkey');
    const moderated = await queryPlan(db, dialect, moderatedCountQuery(db, dialect, { search: 'river' }, keptMatches).compile());
    expect(moderated).not.toContain('petitions_tsv_document');
  });

  it('the default sort (no sort asked for) pages by ids first, as the same sort asked for by name does', () => {
    const { db, dialect } = api.context;
    const request = { page: 2, pageSize: 20 };
    const unnamed = pageQuery(db, dialect, { search: 'river' }, undefined, request).compile().sql;
    expect(unnamed).toBe(pageQuery(db, dialect, { search: 'river' }, DEFAULT_SORT, request).compile().sql);
  });
});

describe('classification indexes (migration 0002)', () => {
  function plan(filters: PetitionFilters): Promise<string> {
    const { db, dialect } = api.context;
    return queryPlan(db, dialect, pageQuery(db, dialect, filters, undefined, { page: 1, pageSize: 20 }).compile());
  }

  it.each(['debated', 'not_debated'] as const)('%s reads the debate-status index instead of scanning', async (status) => {
    expect(await plan({ status })).toContain('petitions_debate_status');
  });

  it('with_response reads the response-state index instead of scanning', async () => {
    expect(await plan({ status: 'with_response' })).toContain('petitions_response_state');
  });
});

describe('late-stage filters (docs/operations.md#late-stage-filters)', () => {
  const LATE = ['awaiting_response', 'awaiting_debate', 'with_response', 'debated', 'not_debated'] as const;

  it.each(LATE)('%s: pages by most and by fewest signatures are the matches in count order, however they are read', async (status) => {
    const { db, dialect } = api.context;
    const matches = await db
      .selectFrom('petitions')
      .select(['id', 'signature_count'])
      .where('id', 'in', await listPetitionIds(db, dialect, { status }, 'oldest', PETITIONS))
      .execute();
    expect(matches.length).toBeGreaterThan(60);
    const ascending = matches.sort((a, b) => a.signature_count - b.signature_count || a.id - b.id).map((row) => row.id);
    for (const page of [1, 3]) {
      const request = { page, pageSize: 25 };
      const fewest = await listPetitionRows(db, dialect, { status }, 'fewest_signatures', request);
      expect(fewest.map((row) => row.id), `fewest, page ${page}`).toEqual(ascending.slice((page - 1) * 25, page * 25));
      const most = await listPetitionRows(db, dialect, { status }, 'most_signatures', request);
      expect(most.map((row) => row.id), `most, page ${page}`).toEqual([...ascending].reverse().slice((page - 1) * 25, page * 25));
    }
    expect(await countPetitions(db, dialect, { status })).toBe(matches.length);
  });

  it.each(['awaiting_response', 'awaiting_debate'] as const)('%s is counted through the band indexes, not by reading every petition', async (status) => {
    const { db, dialect } = api.context;
    const plan = await queryPlan(db, dialect, countQuery(db, dialect, { status }).compile());
    expect(plan).toContain('petitions_signature_band');
    if (dialect === 'sqlite') expect(plan).not.toMatch(/SCAN petitions(?! USING)/);
  });

  it('the fewest-signatures page reads its matches and sorts them; the most-signatures page walks the band order', async () => {
    const { db, dialect } = api.context;
    const request = { page: 1, pageSize: 20 };
    const fewest = await queryPlan(db, dialect, pageQuery(db, dialect, { status: 'awaiting_response' }, 'fewest_signatures', request).compile());
    const most = await queryPlan(db, dialect, pageQuery(db, dialect, { status: 'awaiting_response' }, 'most_signatures', request).compile());
    if (dialect === 'sqlite') {
      expect(fewest).toContain('MULTI-INDEX OR');
      expect(fewest).not.toContain('SCAN petitions USING INDEX petitions_signature_band');
      expect(most).toContain('SCAN petitions USING INDEX petitions_signature_band');
      expect(most).not.toContain('MULTI-INDEX OR');
    } else {
      expect(fewest).toContain('Bitmap Index Scan on petitions_signature_band');
      expect(fewest).not.toMatch(/Index Scan( Backward)? using petitions_signature_band/);
      expect(most).toMatch(/Index Scan Backward using petitions_signature_band/);
    }
  });
});

describe('moderated petitions (migration 0015)', () => {
  it('are subtracted from totals through the partial index, whatever the filters, and left out of pages', async () => {
    const { db, dialect } = api.context;
    const moderated = await db.selectFrom('petitions').select('id').where('title', 'like', 'river%').orderBy('id').limit(40).execute();
    await db.updateTable('petitions').set({ moderation_state: 'hidden', moderated_at: '2026-01-02T00:00:00.000Z' }).where('id', 'in', moderated.map((r) => r.id)).execute();
    try {
      for (const filters of [{}, { search: 'river' }, { tag: 'Budget' }, { search: 'riv', status: 'open' as const }]) {
        const count = await queryPlan(db, dialect, moderatedCountQuery(db, dialect, filters).compile());
        if (dialect === 'sqlite') expect(count, JSON.stringify(filters)).toContain('petitions_moderated');
        const page = await listPetitionRows(db, dialect, filters, undefined, { page: 1, pageSize: 100 });
        expect(page.some((row) => row.moderation_state !== null)).toBe(false);
      }
      const all = await countPetitions(db, dialect, {});
      const raw = Number((await countQuery(db, dialect, {}).executeTakeFirstOrThrow()).total);
      expect(all).toBe(raw - 40);
      const river = await countPetitions(db, dialect, { search: 'river' });
      const rawRiver = Number((await countQuery(db, dialect, { search: 'river' }).executeTakeFirstOrThrow()).total);
      expect(river).toBe(rawRiver - 40);
    } finally {
      await db.updateTable('petitions').set({ moderation_state: null, moderated_at: null }).where('id', 'in', moderated.map((r) => r.id)).execute();
    }
  });
});

describe('caching on a large site', () => {
  it('keeps totals and pages for a moment once the site holds 5,000 petitions', async () => {
    const first = (await api.request({ url: '/api/petitions?status=closed' })).json<PetitionList>();
    await insertPetition(api.context.db, { status: 'closed', signature_count: 10_000 });
    const second = (await api.request({ url: '/api/petitions?status=closed' })).json<PetitionList>();
    expect(second).toEqual(first);
    // A different question is answered afresh.
    const other = (await api.request({ url: '/api/petitions?status=closed&sort=most_signatures&pageSize=5' })).json<PetitionList>();
    expect(other.items[0]!.signatures).toBe(10_000);
  });
});
