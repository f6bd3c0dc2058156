/**
 * Three server processes (`src-server/main.ts`, background jobs on) on one PostgreSQL database,
 * clients spread over them, as behind a load balancer. Always PostgreSQL.
 * - 2,000 concurrent sign/unsign calls by 500 users on 5 petitions: every stored count equals its
 *   signature rows, statuses follow the shared rule, nobody signed twice, nothing answered 5xx;
 * - a ban, a maintenance switch and a logout made on one node hold on the others within 1 s;
 * - the timed closure pass runs once per interval across the three, not once per node;
 * - the same Idempotency-Key on two nodes at once gives one action; the daily creation limit holds across nodes;
 * - a node killed (SIGKILL) in the middle of a load: the others carry on, every signature that got
 *   a 2xx is stored, and the counts are exact (nothing was held in the dead node's memory).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_IN_PROGRESS_TYPE } from '../../src-shared/console/outbox.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE, DAILY_PETITION_LIMIT } from '../../src-shared/domain/constants.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { openDatabase, type OpenDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { insertCurrentTerm, insertPetition, VALID_PETITION } from './public-test-data.ts';

const ADMIN_ID = '9000';
const USERS = 500;
const PETITIONS = 5;
const CLOSURE_INTERVAL_MS = 1000;

let database: TestDatabase;
let setup: OpenDatabase;
const servers: ServerNode[] = [];
let bases: string[] = [];
const cookies: string[] = [];
let adminCookie: string;

function request(node: number, method: string, url: string, cookie?: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${bases[node % bases.length]}${url}`, {
    method,
    headers: {
      ...headers,
      ...(cookie ? { cookie } : {}),
      ...(method === 'GET' ? {} : { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' }),
    },
    ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
  });
}

/** Polls `check` on every node until it holds on all of them, and says how long that took. */
async function heldEverywhereWithin(check: (node: number) => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    const results = await Promise.all(bases.map((_, node) => check(node)));
    if (results.every(Boolean)) return performance.now() - started;
    if (performance.now() - started > 5_000) return Number.POSITIVE_INFINITY;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  // Migrated before the nodes start, as a deployment would; the nodes then find it current.
  setup = await openDatabase(database.url);
  const users = createUserRepository(setup.db);
  const sessions = createSessionService(setup.db);
  const cookieName = cookieSettings(undefined).name;
  await users.upsert({ id: ADMIN_ID, username: 'sysadmin', displayName: 'System Administrator', avatarUrl: null, citizenRank: 1, governmentRank: 0 });
  adminCookie = `${cookieName}=${(await sessions.create(ADMIN_ID, 'web')).token}`;
  for (let i = 0; i < USERS; i += 1) {
    const id = String(600_000 + i);
    await users.upsert({ id, username: `crowd${i}`, displayName: `Crowd ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
    cookies.push(`${cookieName}=${(await sessions.create(id, 'web')).token}`);
  }
  servers.push(
    ...(await Promise.all(
      [0, 1, 2].map(() =>
        // 2,000 calls at once from one address: about exact counts, not overload, so neither the pool wait
        // (503 past it) nor the connections per client (docs/limits.md) may turn calls away here.
        startServerNode({
          DATABASE_URL: database.url,
          DATABASE_POOL_SIZE: '5',
          DATABASE_POOL_WAIT_MS: '60000',
          CONNECTIONS_PER_CLIENT: '5000',
          ADMIN_USER_ID: ADMIN_ID,
          CLOSURE_INTERVAL_MS: String(CLOSURE_INTERVAL_MS),
        }),
      ),
    )),
  );
  bases = servers.map((server) => server.base);
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await setup?.close();
  await database?.drop();
});

describe('three nodes on one PostgreSQL', () => {
  it('keeps every count exact under 2,000 concurrent sign and unsign calls spread over the nodes', async () => {
    const petitions = [];
    for (let i = 0; i < PETITIONS; i += 1) petitions.push(await insertPetition(setup.db));
    const calls: Promise<number>[] = [];
    for (let k = 0; k < 2_000; k += 1) {
      const user = k % USERS;
      const petition = petitions[(k * 7 + Math.floor(k / USERS)) % PETITIONS]!;
      const action = k % 5 === 4 ? 'unsign' : 'sign';
      calls.push(request(k, 'POST', `/api/petitions/${petition.id}/${action}`, cookies[user]).then((r) => r.status));
    }
    const statuses = await Promise.all(calls);
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    for (const petition of petitions) {
      const row = await setup.db.selectFrom('petitions').select(['signature_count', 'status']).where('id', '=', petition.id).executeTakeFirstOrThrow();
      const signers = await setup.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petition.id).execute();
      expect(new Set(signers.map((s) => s.user_id)).size).toBe(signers.length);
      expect(row.signature_count).toBe(signers.length);
      expect(row.status).toBe(automaticStatus({ status: 'open', signatures: signers.length, governmentResponse: null, debateInfo: null }));
    }
  }, 120_000);

  it('enforces a ban, a maintenance switch and a logout made on one node on the others within 1 s', async () => {
    await insertCurrentTerm(setup.db);
    const banned = 10;
    const ban = await request(0, 'PUT', `/api/bans/${600_000 + banned}`, adminCookie, { reason: 'Spam across nodes' });
    expect(ban.status).toBe(201);
    // The banned user tries on the two other nodes: refused there at once.
    for (const node of [1, 2]) {
      const created = await request(node, 'POST', '/api/petitions', cookies[banned], { ...VALID_PETITION, title: `Banned attempt on node ${node}` });
      expect(created.status).toBe(403);
    }

    expect((await request(1, 'PUT', '/api/site-status', adminCookie, { maintenance: true })).status).toBe(200);
    const maintenanceSeen = await heldEverywhereWithin(async (node) => (await request(node, 'GET', '/api/petitions', cookies[1])).status === 503);
    // 1 s for the change to reach every node, and room for the polling itself with other test files running.
    expect(maintenanceSeen).toBeLessThan(1_000 + 500);
    expect((await request(2, 'PUT', '/api/site-status', adminCookie, { maintenance: false })).status).toBe(200);
    const maintenanceOff = await heldEverywhereWithin(async (node) => (await request(node, 'GET', '/api/petitions', cookies[1])).status === 200);
    expect(maintenanceOff).toBeLessThan(1_000 + 500);

    const user = USERS - 1;
    const signedIn = async (node: number) => ((await (await request(node, 'GET', '/api/auth/session', cookies[user])).json()) as { user: unknown }).user !== null;
    expect(await signedIn(0)).toBe(true);
    expect((await request(2, 'POST', `/api/auth/roblox/logout/${600_000 + user}`, cookies[user])).status).toBe(200);
    // The other nodes' session caches hear of it within 1 s (docs/operations.md#the-session-cache).
    const signedOutEverywhere = await heldEverywhereWithin(async (node) => !(await signedIn(node)));
    expect(signedOutEverywhere).toBeLessThan(1_000 + 500);
  }, 60_000);

  it('runs the timed closure pass once per interval across the three nodes', async () => {
    const passes = new Set<string>();
    const started = Date.now();
    while (Date.now() - started < 5_000) {
      const row = await setup.db.selectFrom('site_settings').select('value').where('key', '=', 'closure_last_pass_at').executeTakeFirst();
      if (row) passes.add(row.value);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Three nodes each firing every second would give ~15 passes in 5 s; shared, about one a second.
    expect(passes.size).toBeGreaterThanOrEqual(3);
    expect(passes.size).toBeLessThanOrEqual(7);
  }, 30_000);
  it('gives one action for an Idempotency-Key sent to two nodes at once, and holds the daily limit across them', async () => {
    for (let round = 0; round < 20; round += 1) {
      const name = `Process race term ${round}`;
      const body = { name, startDate: `${2200 + round}-01-01`, endDate: `${2200 + round}-12-31` };
      const replies = await Promise.all(
        [0, 1].map((node) => request(node, 'POST', '/api/parliamentary-terms', adminCookie, body, { 'idempotency-key': `process-race-${round}` })),
      );
      for (const reply of replies) {
        expect([201, 409]).toContain(reply.status);
        if (reply.status === 409) expect(((await reply.json()) as { type: string }).type).toBe(IDEMPOTENCY_IN_PROGRESS_TYPE);
      }
      expect(replies.some((reply) => reply.status === 201)).toBe(true);
      expect(await setup.db.selectFrom('terms').select('id').where('name', '=', name).execute()).toHaveLength(1);
      expect(await setup.db.selectFrom('audit_log').select('id').where('action', '=', 'term.create').where('after', 'like', `%${name}%`).execute()).toHaveLength(1);
    }
    for (const user of [100, 101, 102, 103]) {
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, k) => request(k, 'POST', '/api/petitions', cookies[user], { ...VALID_PETITION, title: `Process race ${user}-${k}` })),
      );
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
      expect(await setup.db.selectFrom('petitions').select('id').where('creator_id', '=', String(600_000 + user)).execute()).toHaveLength(DAILY_PETITION_LIMIT);
    }
  }, 60_000);

  it('loses no acknowledged signature when a node is killed in the middle of a load', async () => {
    const petition = await insertPetition(setup.db);
    const victim = servers[2]!.process;
    let answered = 0;
    // Every user but the one who logged out above, sent by 30 clients that each wait for an answer before
    // their next call, so the load is still running when the victim is killed after the first answers:
    // the victim has calls in flight, and its later calls find it gone, whatever the machine's speed (a
    // single burst could be answered whole by one group commit before the kill lands).
    const results: { user: number; status: number; node: number }[] = [];
    let next = 0;
    const client = async () => {
      for (let user = next++; user < USERS - 1; user = next++) {
        const status = await request(user, 'POST', `/api/petitions/${petition.id}/sign`, cookies[user]).then(
          (response) => response.status,
          () => 0,
        );
        results.push({ user, status, node: user % 3 });
        if (status !== 0 && ++answered === 10) victim.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: 30 }, client));
    // The survivors answered every call they got; only the dead node's calls may have no answer.
    expect(results.filter((r) => r.node !== 2 && r.status !== 200)).toEqual([]);
    expect(results.filter((r) => r.status !== 200 && r.status !== 0)).toEqual([]);
    expect(results.some((r) => r.status === 0)).toBe(true);
    const stored = new Set(
      (await setup.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petition.id).execute()).map((row) => Number(row.user_id) - 600_000),
    );
    for (const result of results) if (result.status === 200) expect(stored.has(result.user)).toBe(true);
    const row = await setup.db.selectFrom('petitions').select('signature_count').where('id', '=', petition.id).executeTakeFirstOrThrow();
    expect(row.signature_count).toBe(stored.size);
    // The two survivors still serve.
    bases = bases.slice(0, 2);
    expect((await request(0, 'GET', `/api/petitions/${petition.id}/count`)).status).toBe(200);
    expect((await request(1, 'GET', `/api/petitions/${petition.id}/count`)).status).toBe(200);
  }, 60_000);
});
