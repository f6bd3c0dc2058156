/**
 * Search at scale: migration 0003 gives the search table prefix indexes without changing what any
 * search finds, and a large site keeps each search's match count for a few seconds while a small
 * site counts afresh every time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PetitionList } from '../../src-shared/domain/schemas.ts';
import { initialMigration } from '../../src-server/db/migrations/0001_initial.ts';
import { classificationIndexesMigration } from '../../src-server/db/migrations/0002_classification_indexes.ts';
import { searchPrefixIndexMigration } from '../../src-server/db/migrations/0003_search_prefix_index.ts';
import type { Database, NewPetitionRow } from '../../src-server/db/schema.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { insertPetition } from './public-test-data.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-search-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const CORPUS = [
  ['Reopen the Zürich café', 'A naïve plan for every résumé and every cafe owner.'],
  ['Schools and schooling', 'Schoolchildren need a school bus to the schoolhouse.'],
  ['Connect the councils', 'Consult, construct and cooperate with county councils.'],
  ['Ελληνικά μαθήματα στα σχολεία', 'Μαθήματα ελληνικών για όλους.'],
  ['Новая школа для города', 'Школа и библиотека для всех.'],
  ['Repair the A38 road by 2026', 'The A38 and the A30 need repairs before 2026.'],
  ['Cows, cowboys and coworking', 'Co-operative farms for every county.'],
  ['Housing for nurses', 'Houses and housing associations near every hospital.'],
];

/** Whole words, stems and prefixes of one to six characters, as typed while searching. */
const QUERIES = [
  '"c"*', '"co"*', '"cou"*', '"coun"*', '"counc"*', '"counci"*', '"sc"*', '"sch"*', '"scho"*', '"schoo"*', '"school"*',
  '"zü"*', '"zur"*', '"cafe"*', '"café"', '"naive"', '"ελ"*', '"μαθ"*', '"шк"*', '"шко"*', '"школ"*', '"a3"*', '"a38"',
  '"20"*', '"202"*', '"2026"', '"hous"*', '"housing"', '"every" "co"*', '"schools" "bu"*', '"county" "coop"*', '"xy"*',
];

function migrationsUpTo(count: number): Record<string, Migration> {
  const all: Record<string, Migration> = {
    '0001_initial': initialMigration.sqlite,
    '0002_classification_indexes': classificationIndexesMigration.sqlite,
    '0003_search_prefix_index': searchPrefixIndexMigration.sqlite,
  };
  return Object.fromEntries(Object.entries(all).slice(0, count));
}

async function migrate(db: Kysely<Database>, count: number): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsUpTo(count) } });
  const { error } = await migrator.migrateToLatest();
  expect(error).toBeUndefined();
}

async function matches(db: Kysely<Database>, table: 'petitions_fts' | 'plain_fts', query: string): Promise<number[]> {
  const result = await sql<{ rowid: number }>`SELECT rowid FROM ${sql.table(table)} WHERE ${sql.table(table)} MATCH ${query} ORDER BY rowid`.execute(db);
  return result.rows.map((row) => row.rowid);
}

async function searchTableSql(db: Kysely<Database>): Promise<string> {
  const row = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'petitions_fts'`.execute(db);
  return row.rows[0]!.sql;
}

describe('migration 0003 (search prefix indexes)', () => {
  let db: Kysely<Database>;
  const ids: number[] = [];

  beforeAll(async () => {
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(path.join(dir, 'old.db')) }) });
    await migrate(db, 2);
    for (const [title, description] of CORPUS) ids.push((await insertPetition(db, { title, description })).id);
    await migrate(db, 3);
    // The same text indexed the way 0001 did it, without prefix indexes: the reference for every answer.
    await sql`CREATE VIRTUAL TABLE plain_fts USING fts5(title, description, content='petitions', content_rowid='id', tokenize='porter unicode61')`.execute(db);
    await sql`INSERT INTO plain_fts(plain_fts) VALUES ('rebuild')`.execute(db);
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('recreates the search table with prefix indexes of 2, 3 and 4 characters', async () => {
    expect(await searchTableSql(db)).toContain("prefix='2 3 4'");
  });

  it('indexes the petitions that were there before it ran', async () => {
    expect(await matches(db, 'petitions_fts', '"zürich"')).toEqual([ids[0]]);
    expect(await matches(db, 'petitions_fts', '"schoo"*')).toEqual([ids[1]]);
    expect(await matches(db, 'petitions_fts', '"co"*')).toEqual([ids[2], ids[6]]);
    expect(await matches(db, 'petitions_fts', '"шко"*')).toEqual([ids[4]]);
  });

  it.each(QUERIES)('finds exactly what a table without prefix indexes finds: %s', async (query) => {
    expect(await matches(db, 'petitions_fts', query)).toEqual(await matches(db, 'plain_fts', query));
  });

  it('is kept in step by the triggers of 0001 afterwards', async () => {
    const added = await insertPetition(db, { title: 'Lighthouse wardens' });
    expect(await matches(db, 'petitions_fts', '"li"*')).toEqual([added.id]);
    await db.updateTable('petitions').set({ title: 'Lightship crews' }).where('id', '=', added.id).execute();
    expect(await matches(db, 'petitions_fts', '"lights"*')).toEqual([added.id]);
    expect(await matches(db, 'petitions_fts', '"wa"*')).toEqual([]);
    await db.deleteFrom('petition_tags').where('petition_id', '=', added.id).execute();
    await db.deleteFrom('petitions').where('id', '=', added.id).execute();
    expect(await matches(db, 'petitions_fts', '"li"*')).toEqual([]);
  });

  it('goes back down to the table without prefix indexes, still finding every petition', async () => {
    await searchPrefixIndexMigration.sqlite.down!(db as Kysely<unknown>);
    expect(await searchTableSql(db)).not.toContain('prefix');
    expect(await matches(db, 'petitions_fts', '"co"*')).toEqual([ids[2], ids[6]]);
  });
});

describe('match counts on a small site', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api.close();
  });

  it('are counted afresh for every page', async () => {
    await insertPetition(api.context.db, { title: 'Light the harbour' });
    const first = (await api.request({ url: '/api/petitions?search=harbour' })).json<PetitionList>();
    await insertPetition(api.context.db, { title: 'Dredge the harbour' });
    const second = (await api.request({ url: '/api/petitions?search=harbour' })).json<PetitionList>();
    expect([first.total, second.total]).toEqual([1, 2]);
  });
});

describe('match counts on a large site', () => {
  const PETITIONS = 5_200;
  let api: TestApi;

  beforeAll(async () => {
    // Only performance.now(), which the list's caches read, is faked: the test moves it past their lifetimes.
    vi.useFakeTimers({ toFake: ['performance'] });
    api = await startTestApi();
    const rows: NewPetitionRow[] = [];
    for (let i = 0; i < PETITIONS; i += 1) {
      rows.push({
        title: `${i % 100 === 0 ? 'Lighthouse' : 'Harbour'} petition ${i}`,
        description: 'A description that is comfortably longer than thirty characters.',
        creator_name: 'Bulk',
        creator_id: '1',
        tags: '[]',
        category: 'General',
        term_id: null,
        status: 'open',
        closure_reason: null,
        closed_at: null,
        signature_count: i % 97,
        government_response: null,
        government_response_meta: null,
        debate_info: null,
        debate_info_meta: null,
        version: 1,
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        updated_at: '2026-01-01T00:00:00.000Z',
      });
    }
    await api.context.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 250) await trx.insertInto('petitions').values(rows.slice(i, i + 250)).execute();
    });
  });

  afterEach(() => {
    vi.advanceTimersByTime(10_000);
  });

  afterAll(async () => {
    vi.useRealTimers();
    await api.close();
  });

  async function list(query: string): Promise<PetitionList> {
    const response = await api.request({ url: `/api/petitions?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PetitionList>();
  }

  it('keeps a search’s count for five seconds while its pages are read afresh', async () => {
    const before = await list('search=lighthouse');
    expect(before.total).toBe(PETITIONS / 100);
    const added = await insertPetition(api.context.db, { title: 'Lighthouse keepers', signature_count: 1_000_000 });
    // Another page of the same search: its rows are new, its count is the one kept.
    const kept = await list('search=lighthouse&pageSize=5');
    expect(kept.items[0]!.id).toBe(added.id);
    expect(kept.total).toBe(before.total);
    vi.advanceTimersByTime(5_001);
    expect((await list('search=lighthouse&pageSize=6')).total).toBe(before.total + 1);
  });

  it('shares the kept count between ways of typing the same words, but not with filtered lists', async () => {
    const before = await list('search=lighthouse');
    const museum = await insertPetition(api.context.db, { title: 'Lighthouse museum', status: 'closed' });
    expect((await list(`search=${encodeURIComponent('  lighthouse!! ')}&pageSize=7`)).total).toBe(before.total);
    // A search with a status is counted with the status; the kept match count only chose its plan.
    const closed = await list('search=lighthouse&status=closed');
    expect(closed.items.map((p) => p.id)).toEqual([museum.id]);
    expect(closed.total).toBe(1);
  });

  it('finds a petition added to a search that matched nothing within five seconds', async () => {
    expect((await list('search=zeppelin')).total).toBe(0);
    const added = await insertPetition(api.context.db, { title: 'Zeppelin mooring mast' });
    expect((await list('search=zeppelin&pageSize=5')).items).toEqual([]);
    vi.advanceTimersByTime(5_001);
    const after = await list('search=zeppelin&pageSize=6');
    expect(after.items.map((p) => p.id)).toEqual([added.id]);
    expect(after.total).toBe(1);
  });
});
