import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetitionListSchema, type PetitionList } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { queryPlan } from '../support/query-plan.ts';
import { countQuery, pageQuery } from '../../src-server/petitions/petition-queries.ts';
import { insertPetition, insertTerm } from './public-test-data.ts';

let api: TestApi;
let termA: number;
let termB: number;

/** id by title, to keep expectations readable. */
const ids: Record<string, number> = {};

async function list(query = ''): Promise<PetitionList> {
  const response = await api.request({ url: `/api/petitions${query}` });
  expect(response.statusCode, response.body).toBe(200);
  // The page is sent as stored JSON text: it must still be the documented shape, as JSON.
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return PetitionListSchema.parse(response.json());
}

beforeAll(async () => {
  api = await startTestApi();
  const db = api.context.db;
  termA = await insertTerm(db, { name: 'Term A', startDate: '2025-01-01', endDate: '2025-12-31', status: 'completed' });
  termB = await insertTerm(db, { name: 'Term B', startDate: '2026-01-01', endDate: '2030-12-31' });
  const fixtures = [
    { title: 'Save the village library', description: 'Libraries are the heart of every village community and must stay open.', tags: ['Public Services'], signature_count: 15, term_id: termB, created_at: '2026-03-01T10:00:00.000Z' },
    { title: 'Lower taxes on small business', description: 'Small businesses pay too much tax compared with large corporations today.', tags: ['Business', 'Budget'], signature_count: 15, term_id: termB, created_at: '2026-03-02T10:00:00.000Z' },
    { title: 'apple orchards for every town', description: 'Every town should plant a community orchard of apple trees for residents.', tags: ['Public Services'], signature_count: 3, term_id: termB, created_at: '2026-03-03T10:00:00.000Z' },
    { title: 'Reform the House of Lords', description: 'The upper chamber should be elected by citizens rather than appointed for life.', tags: ['Parliament', 'Democracy'], signature_count: 40, term_id: termA, created_at: '2025-05-01T10:00:00.000Z', status: 'closed', closure_reason: 'term_ended' },
    { title: 'Zebra crossings near schools', description: 'Every primary school needs a safe zebra crossing at its main gate for pupils.', tags: ['Public Services', 'Laws'], signature_count: 0, term_id: null, created_at: '2026-03-04T10:00:00.000Z' },
  ];
  for (const { tags, ...values } of fixtures) {
    const row = await insertPetition(db, { ...values, tags: JSON.stringify(tags) });
    ids[values.title] = row.id;
  }
});

afterAll(async () => {
  await api.close();
});

describe('GET /api/petitions', () => {
  it('lists by most signatures by default, ties broken by id, with paging figures', async () => {
    const body = await list();
    expect(body.total).toBe(5);
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(20);
    expect(body.items.map((p) => p.title)).toEqual([
      'Reform the House of Lords',
      'Lower taxes on small business',
      'Save the village library',
      'apple orchards for every town',
      'Zebra crossings near schools',
    ]);
    expect(body.items[0]).toMatchObject({ tags: ['Parliament', 'Democracy'], termId: termA, status: 'closed', closureReason: 'term_ended' });
  });

  it('pages through the list without overlap and answers an empty page past the end', async () => {
    const first = await list('?pageSize=2&page=1');
    const second = await list('?pageSize=2&page=2');
    const third = await list('?pageSize=2&page=3');
    const beyond = await list('?pageSize=2&page=9');
    const seen = [...first.items, ...second.items, ...third.items].map((p) => p.id);
    expect(new Set(seen).size).toBe(5);
    expect(third.items).toHaveLength(1);
    expect(beyond).toMatchObject({ items: [], total: 5, page: 9, pageSize: 2 });
  });

  it.each([
    ['newest', ['Zebra crossings near schools', 'apple orchards for every town', 'Lower taxes on small business', 'Save the village library', 'Reform the House of Lords']],
    ['oldest', ['Reform the House of Lords', 'Save the village library', 'Lower taxes on small business', 'apple orchards for every town', 'Zebra crossings near schools']],
    ['fewest_signatures', ['Zebra crossings near schools', 'apple orchards for every town', 'Save the village library', 'Lower taxes on small business', 'Reform the House of Lords']],
    ['most_signatures', ['Reform the House of Lords', 'Lower taxes on small business', 'Save the village library', 'apple orchards for every town', 'Zebra crossings near schools']],
    // Binary collation: capitals sort before lower case, as the title index orders them.
    ['alphabetical', ['Lower taxes on small business', 'Reform the House of Lords', 'Save the village library', 'Zebra crossings near schools', 'apple orchards for every town']],
  ])('sorts by %s', async (sort, expected) => {
    const body = await list(`?sort=${sort}`);
    expect(body.items.map((p) => p.title)).toEqual(expected);
  });

  it('filters by tag through petition_tags', async () => {
    const body = await list('?tag=Public%20Services');
    expect(body.items.map((p) => p.title).sort()).toEqual(['Save the village library', 'Zebra crossings near schools', 'apple orchards for every town']);
    expect((await list('?tag=Nonexistent')).total).toBe(0);
  });

  it('filters by term', async () => {
    expect((await list(`?term=${termA}`)).items.map((p) => p.title)).toEqual(['Reform the House of Lords']);
    expect((await list(`?term=${termB}`)).total).toBe(3);
  });

  it('combines search, status, tag and term filters', async () => {
    const body = await list(`?search=village&status=open&tag=Public%20Services&term=${termB}`);
    expect(body.items.map((p) => p.title)).toEqual(['Save the village library']);
    expect((await list('?search=village&status=closed')).total).toBe(0);
  });

  describe('search', () => {
    it('matches words of the title or the description, stemmed and case-insensitive', async () => {
      expect((await list('?search=LIBRARY')).items.map((p) => p.title)).toEqual(['Save the village library']);
      expect((await list('?search=corporations')).items.map((p) => p.title)).toEqual(['Lower taxes on small business']);
      // Porter stemming: "schools" finds "school" and "schools".
      expect((await list('?search=school')).items.map((p) => p.title)).toEqual(['Zebra crossings near schools']);
    });

    it('needs every word and treats the last word as a prefix', async () => {
      expect((await list('?search=village%20lib')).items.map((p) => p.title)).toEqual(['Save the village library']);
      expect((await list('?search=village%20orchard')).total).toBe(0);
      expect((await list('?search=orch')).items.map((p) => p.title)).toEqual(['apple orchards for every town']);
    });

    it.each([
      '"',
      '"unbalanced',
      'NEAR(village library)',
      'title:village',
      '*',
      'village AND OR NOT',
      '-village',
      '^village',
      "'; DROP TABLE petitions; --",
      '(((',
      'village"library',
      '\u0000',
      'ünïcödé 漢字 🏛️',
      'a'.repeat(200),
    ])('never fails on hostile input %j', async (search) => {
      const response = await api.request({ url: `/api/petitions?search=${encodeURIComponent(search)}` });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<PetitionList>().total).toBeGreaterThanOrEqual(0);
    });

    it('quotes operators as plain words', async () => {
      // "village AND OR NOT" needs all four words, which no petition has.
      expect((await list('?search=village%20AND%20OR%20NOT')).total).toBe(0);
      expect((await list('?search=title%3Avillage')).total).toBe(0);
      expect((await list('?search=NEAR(village%20library)')).total).toBe(0);
    });

    it('ignores a search with no words in it', async () => {
      expect((await list('?search=%22%2A%28')).total).toBe(5);
    });
  });

  describe('bad input', () => {
    it.each([
      ['an unknown parameter', '?colour=red', 'colour'],
      ['an unknown status filter', '?status=pending', 'status'],
      ['an unknown sort', '?sort=random', 'sort'],
      ['page 0', '?page=0', 'page'],
      ['a page that is not a number', '?page=two', 'page'],
      ['a page size over the maximum', '?pageSize=101', 'pageSize'],
      ['a term that is not an id', '?term=abc', 'term'],
      ['a search over 200 characters', `?search=${'a'.repeat(201)}`, 'search'],
    ])('refuses %s with 400 and a detail naming the field', async (_label, query, field) => {
      const response = await api.request({ url: `/api/petitions${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json<{ detail: string }>().detail).toContain(field);
    });
  });

  it('reads the default list and a search through indexes (EXPLAIN QUERY PLAN)', async () => {
    const db = api.context.db;
    const dialect = api.context.dialect;
    const plan = (compiled: CompiledQuery) => queryPlan(db, dialect, compiled);
    const sorted = dialect === 'postgres' ? /^(?!.*\bSort\b)/s : /^(?!.*TEMP B-TREE)/s;
    const defaultList = await plan(pageQuery(db, dialect, {}, undefined, { page: 1, pageSize: 20 }).compile());
    // Migrations 0022 and 0024: the band index gives the order; the database sorts only within the bands
    // the page reaches, then the page's own rows (docs/operations.md#signature-bands).
    expect(defaultList).toContain('petitions_signature_band');
    if (dialect === 'postgres') expect(defaultList).toMatch(/Incremental Sort[\s\S]*Presorted Key: (\w+\.)?signature_band\b/);
    else expect(defaultList).toMatch(/USE TEMP B-TREE FOR LAST 2 TERMS OF ORDER BY/);

    const newest = await plan(pageQuery(db, dialect, {}, 'newest', { page: 1, pageSize: 20 }).compile());
    expect(newest).toContain('petitions_created');
    expect(newest).toMatch(sorted);

    // SQLite: the FTS5 table's MATCH index; PostgreSQL: the GIN index of the stored tsvectors.
    const fullText = dialect === 'postgres' ? /Bitmap Index Scan on petitions_tsv_document/ : /VIRTUAL TABLE INDEX \d+:M/;
    const search = await plan(pageQuery(db, dialect, { search: 'village' }, undefined, { page: 1, pageSize: 20 }).compile());
    expect(search).toMatch(fullText);
    const searchCount = await plan(countQuery(db, dialect, { search: 'village' }).compile());
    expect(searchCount).toMatch(fullText);
  });
});

describe('GET /api/petitions.csv', () => {
  it('downloads every matching petition as an attachment with the agreed columns', async () => {
    const response = await api.request({ url: '/api/petitions.csv?sort=oldest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="petitions.csv"');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,title,status,signatures,created,term,tags,url');
    expect(lines).toHaveLength(6);
    const lords = ids['Reform the House of Lords'];
    expect(lines[1]).toBe(
      `${lords},Reform the House of Lords,closed,40,2025-05-01T10:00:00.000Z,Term A,Parliament; Democracy,http://localhost:80/petition/${lords}`,
    );
  });

  it('applies the same filters as the list', async () => {
    const response = await api.request({ url: '/api/petitions.csv?tag=Business' });
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Lower taxes on small business');
  });

  it('defuses spreadsheet formulas and quotes commas, quotes and line breaks', async () => {
    const db = api.context.db;
    const hostile = [
      '=HYPERLINK("http://evil.example","click")',
      '+SUM(A1:A2)',
      '-2+3 cells',
      '@cmd something',
      '\tTabbed title',
      '\rCarriage title',
      'Commas, "quotes" and\nnew lines',
    ];
    const rows = [];
    for (const title of hostile) rows.push(await insertPetition(db, { title, tags: JSON.stringify(['Royal Family']) }));
    try {
      const response = await api.request({ url: '/api/petitions.csv?tag=Royal%20Family&sort=oldest' });
      expect(response.statusCode).toBe(200);
      const body = response.body;
      expect(body).toContain(`${rows[0]!.id},"'=HYPERLINK(""http://evil.example"",""click"")",open,`);
      expect(body).toContain(`${rows[1]!.id},'+SUM(A1:A2),open,`);
      expect(body).toContain(`${rows[2]!.id},'-2+3 cells,open,`);
      expect(body).toContain(`${rows[3]!.id},'@cmd something,open,`);
      expect(body).toContain(`${rows[4]!.id},'\tTabbed title,open,`);
      expect(body).toContain(`${rows[5]!.id},"'\rCarriage title",open,`);
      expect(body).toContain(`${rows[6]!.id},"Commas, ""quotes"" and\nnew lines",open,`);
      // No cell of the export starts with a formula character.
      for (const cell of body.split(/,|\r\n/)) expect(cell).not.toMatch(/^"?[=+@]/);
    } finally {
      await db.deleteFrom('petitions').where('id', 'in', rows.map((row) => row.id)).execute();
    }
  });

  it('refuses bad filters with 400 before streaming anything', async () => {
    const response = await api.request({ url: '/api/petitions.csv?status=nonsense' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toContain('status');
  });
});
