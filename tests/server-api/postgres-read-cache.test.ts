/**
 * The petition read cache across two server processes on one PostgreSQL database (always
 * PostgreSQL; docs/operations.md#the-petition-read-cache): repeat page reads come from the node's
 * copy, a staff change made on one node is seen on the other within 1 s and at once on its own, a
 * change written straight into the database reaches both, and a listening connection killed with
 * pg_terminate_backend (so the notices sent meanwhile are lost) leaves no stale read: the node
 * forgets everything, reads from the database until it listens again, then caches again.
 * SQLite needs none of this: one process owns the file (docs/operations.md#the-petition-read-cache).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { announcePetitionsChanged, FRESHNESS_MS } from '../../src-server/db/change-notices.ts';
import { openDatabase, type OpenDatabase } from '../../src-server/db/database.ts';
import type { PetitionPageRow } from '../../src-server/db/schema.ts';
import { createPetitionCache } from '../../src-server/petitions/petition-cache.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { insertPetition } from './public-test-data.ts';
import { timeUntil } from '../support/time-until.ts';

const ADMIN_ID = '9100';
/** The listening connections: what they last ran is the LISTEN or one of their fences. */
const LISTENERS = "query IN ('LISTEN petitions_changed', 'LISTEN sessions_changed', 'SELECT pg_notify($1, $2)')";

let database: TestDatabase;
let setup: OpenDatabase;
let admin: pg.Client;
let nodes: ServerNode[] = [];
let adminCookie: string;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  setup = await openDatabase(database.url);
  await createUserRepository(setup.db).upsert({ id: ADMIN_ID, username: 'sysadmin', displayName: 'System Administrator', avatarUrl: null, citizenRank: 1, governmentRank: 0 });
  adminCookie = `${cookieSettings(undefined).name}=${(await createSessionService(setup.db).create(ADMIN_ID, 'web')).token}`;
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  nodes = await Promise.all([0, 1].map(() => startServerNode({ DATABASE_URL: database.url, ADMIN_USER_ID: ADMIN_ID })));
}, 120_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await admin?.end();
  await setup?.close();
  await database?.drop();
});

interface Page {
  status: string;
  title: string;
  version: number;
}

async function page(node: ServerNode, id: number): Promise<Page> {
  const response = await fetch(`${node.base}/api/petitions/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}

/** The live counter's figure, as a petition page polls it. */
async function count(node: ServerNode, id: number): Promise<number> {
  const response = await fetch(`${node.base}/api/petitions/${id}/count`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { signatures: number }).signatures;
}

/** The node's reads answered from its copy so far (its /metrics, open in development). */
async function hits(node: ServerNode): Promise<number> {
  const text = await (await fetch(`${node.base}/metrics`)).text();
  return Number(/^petitions_read_cache_reads\{outcome="hit"\} (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

/** Reads the page until the node answers one from its copy (its notices must be current first). */
async function cachedOn(node: ServerNode, id: number): Promise<void> {
  const before = await hits(node);
  const started = performance.now();
  for (;;) {
    await page(node, id);
    if ((await hits(node)) > before) return;
    if (performance.now() - started > 5_000) throw new Error('the node never answered from its cache');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}


async function listeners(): Promise<number> {
  return Number((await admin.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND ${LISTENERS}`)).rows[0].n);
}

describe("a node's own writes", () => {
  it('make its notices not current from the moment the write returns until that write has been heard', async () => {
    const own = await openDatabase(database.url);
    try {
      const notices = own.changeNotices!;
      const heard: (readonly number[] | 'all')[] = [];
      notices.subscribe((changed) => heard.push(changed));
      expect(await timeUntil(async () => notices.current())).toBeLessThan(FRESHNESS_MS);
      const petition = await insertPetition(setup.db);
      await own.db.updateTable('petitions').set({ title: 'Written by this process' }).where('id', '=', petition.id).execute();
      // Before anything else runs: a read now must not trust the cache.
      expect(notices.current()).toBe(false);
      expect(await timeUntil(async () => notices.current())).toBeLessThan(FRESHNESS_MS);
      expect(heard).toContainEqual([petition.id]);
    } finally {
      await own.close();
    }
  });
});

describe('a read under way when its petition changes', () => {
  it('answers what it read but does not keep it', async () => {
    let tell: (changed: readonly number[] | 'all') => void = () => {};
    const notices = { current: () => true, fence() {}, subscribe: (listener: typeof tell) => void (tell = listener), sessionsCurrent: () => true, fenceSessions() {}, subscribeSessions() {}, stats: () => ({ listening: true, connections: 1, notices: 0 }), close: async () => {} };
    const rows = [{ id: 1, title: 'old' }, { id: 1, title: 'new' }];
    let release: () => void = () => {};
    let loads = 0;
    const cache = createPetitionCache({
      notices,
      load: async () => {
        const row = rows[Math.min(loads++, 1)]!;
        if (loads === 1) await new Promise<void>((resolve) => (release = resolve));
        return row as unknown as PetitionPageRow;
      },
    });
    const first = cache.row(1);
    await Promise.resolve();
    tell([1]);
    release();
    expect((await first)?.title).toBe('old');
    expect((await cache.row(1))?.title).toBe('new');
    expect(cache.stats()).toMatchObject({ miss: 2, hit: 0, entries: 1 });
    expect((await cache.row(1))?.title).toBe('new');
    expect(cache.stats().hit).toBe(1);
  });
});

describe('warming', () => {
  it('keeps the most recently changed petitions once the cache starts from nothing, except one that changed while its chunk was read', async () => {
    let tell: (changed: readonly number[] | 'all') => void = () => {};
    const notices = { current: () => true, fence() {}, subscribe: (listener: typeof tell) => void (tell = listener), sessionsCurrent: () => true, fenceSessions() {}, subscribeSessions() {}, stats: () => ({ listening: true, connections: 1, notices: 0 }), close: async () => {} };
    const rows = [3, 2, 1].map((id) => ({ id, title: `petition ${id}`, updated_at: `2026-01-0${id}T00:00:00.000Z` }) as unknown as PetitionPageRow);
    let loads = 0;
    let warmingWhileReading: string | undefined;
    const cache = createPetitionCache({
      notices,
      load: async (id) => {
        loads += 1;
        return { id, title: 'from the database' } as unknown as PetitionPageRow;
      },
      loadRecent: async (cursor) => {
        expect(cursor).toBeNull();
        warmingWhileReading = cache.stats().warming;
        // Petition 2 changes while this chunk is on its way.
        tell([2]);
        return rows;
      },
    });
    expect(cache.stats().warming).toBe('not started');
    tell('all');
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The benchmark waits for 'finished' before it measures (tests/bench/bench-server.ts).
    expect(warmingWhileReading).toBe('running');
    expect(cache.stats()).toMatchObject({ warmed: 2, entries: 2, warming: 'finished' });
    expect((await cache.row(3))?.title).toBe('petition 3');
    expect(loads).toBe(0);
    expect((await cache.row(2))?.title).toBe('from the database');
    expect(loads).toBe(1);
  });
});

describe('the petition read cache on two PostgreSQL nodes', () => {
  it('answers repeat reads from the node, shows a staff change at once on its node and within 1 s on the other', async () => {
    const [a, b] = nodes as [ServerNode, ServerNode];
    const petition = await insertPetition(setup.db);
    await cachedOn(a, petition.id);
    await cachedOn(b, petition.id);

    const { version } = await page(a, petition.id);
    const change = await fetch(`${a.base}/api/petitions/${petition.id}/status`, {
      method: 'PATCH',
      headers: { cookie: adminCookie, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json', 'if-match': `"${version}"` },
      body: JSON.stringify({ status: 'closed' }),
    });
    expect(change.status, await change.clone().text()).toBe(200);
    // Its own node: the very next read, no waiting.
    expect((await page(a, petition.id)).status).toBe('closed');
    const seenOnB = await timeUntil(async () => (await page(b, petition.id)).status === 'closed');
    expect(seenOnB).toBeLessThan(FRESHNESS_MS);
  });

  it('answers the live counter from the node, with its own signature at once and the other node\'s within 1 s', async () => {
    const [a, b] = nodes as [ServerNode, ServerNode];
    const petition = await insertPetition(setup.db);
    for (const node of nodes) await cachedOn(node, petition.id);
    const before = await hits(a);
    expect(await count(a, petition.id)).toBe(0);
    expect(await hits(a)).toBe(before + 1);

    const signerId = '9101';
    await createUserRepository(setup.db).upsert({ id: signerId, username: 'signer', displayName: 'A Signer', avatarUrl: null, citizenRank: 1, governmentRank: 0 });
    const signerCookie = `${cookieSettings(undefined).name}=${(await createSessionService(setup.db).create(signerId, 'web')).token}`;
    const signed = await fetch(`${b.base}/api/petitions/${petition.id}/sign`, {
      method: 'POST',
      headers: { cookie: signerCookie, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect(await count(b, petition.id)).toBe(1);
    expect(await timeUntil(async () => (await count(a, petition.id)) === 1)).toBeLessThan(FRESHNESS_MS);
  });

  it('forgets a petition changed straight in the database, by no node', async () => {
    const petition = await insertPetition(setup.db);
    for (const node of nodes) await cachedOn(node, petition.id);
    await admin.query('UPDATE petitions SET title = $1 WHERE id = $2', ['Retitled outside the server', petition.id]);
    for (const node of nodes) {
      expect(await timeUntil(async () => (await page(node, petition.id)).title === 'Retitled outside the server')).toBeLessThan(FRESHNESS_MS);
    }
  });

  it('leaves no stale read when the listening connections are terminated, and caches again once they listen again', async () => {
    const petition = await insertPetition(setup.db);
    for (const node of nodes) await cachedOn(node, petition.id);
    expect(await listeners()).toBe(2);

    // The change commits right after the listeners are killed: its notice reaches no one.
    const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${LISTENERS}`);
    expect(killed.rowCount).toBe(2);
    await admin.query('UPDATE petitions SET title = $1 WHERE id = $2', ['Changed while nobody listened', petition.id]);
    for (const node of nodes) {
      expect(await timeUntil(async () => (await page(node, petition.id)).title === 'Changed while nobody listened')).toBeLessThan(FRESHNESS_MS);
    }

    expect(await timeUntil(async () => (await listeners()) === 2)).toBeLessThan(5_000);
    for (const node of nodes) {
      await cachedOn(node, petition.id);
      // Answered from the copy made after listening again, never the one from before.
      expect((await page(node, petition.id)).title).toBe('Changed while nobody listened');
    }
    await admin.query('UPDATE petitions SET title = $1 WHERE id = $2', ['Changed after listening again', petition.id]);
    for (const node of nodes) {
      expect(await timeUntil(async () => (await page(node, petition.id)).title === 'Changed after listening again')).toBeLessThan(FRESHNESS_MS);
    }
  });
});

describe('announcing petitions changed without updating them', () => {
  it('names the petitions at commit, or says everything changed when their ids would not fit in one notice', async () => {
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const heard: string[] = [];
    // The nodes' own fences travel on the same channel; only lists of ids and "everything" are kept.
    listener.on('notification', (notice) => {
      if (notice.payload && /^(\*|[\d,]+)$/.test(notice.payload)) heard.push(notice.payload);
    });
    try {
      await listener.query('LISTEN petitions_changed');
      await setup.db.transaction().execute((trx) => announcePetitionsChanged(trx, [7, 8]));
      await setup.db.transaction().execute((trx) => announcePetitionsChanged(trx, Array.from({ length: 2_000 }, (_, i) => 100_000 + i)));
      await expect.poll(() => heard).toEqual(['7,8', '*']);
    } finally {
      await listener.end();
    }
  });
});
