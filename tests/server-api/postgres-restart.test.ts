/**
 * PostgreSQL itself restarted in the middle of a load (always PostgreSQL). The test runs a server
 * of its own (tests/support/private-postgres.ts), so stopping it disturbs no other test using the
 * machine's shared PostgreSQL. A server node (`src-server/main.ts`, background jobs on) takes a
 * bounded signing load from many clients while PostgreSQL is stopped twice and started again after
 * a pause: first a fast shutdown (what `pg_ctl restart` does: connections cut, open transactions
 * rolled back), then an immediate one (a crash, recovered from WAL on the next start).
 * - while it is down, requests answer 503 with a clear detail and Retry-After, /readyz says not
 *   ready, /healthz stays up, and the node stays alive (nothing answers 500);
 * - it recovers on its own: /readyz turns 200 and signing goes on, with no restart of the node;
 * - clients retry what got 503 (as Retry-After asks); a retry may find its first attempt committed
 *   (409 already signed) but never anything else;
 * - afterwards every 2xx-acknowledged signature is stored, every stored count equals its rows, the
 *   statuses follow the shared rule, and pg_amcheck finds no corrupted table or index.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { DATABASE_UNAVAILABLE } from '../../src-server/db/unavailable.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import { startPrivatePostgres, type PrivatePostgres, type StopMode } from '../support/private-postgres.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';
import { insertPetition } from './public-test-data.ts';

const USERS = 240;
const PETITIONS = 3;
const CLIENTS = 12;
/** How long PostgreSQL stays down each time. */
const PAUSE_MS = 1_500;
/** A client that got 503 waits this long before trying again (shorter than Retry-After, to keep the test short). */
const RETRY_MS = 100;
const FIRST_USER = 700_000;

interface Outcome {
  status: number;
  detail?: string;
  retryAfter?: string | null;
  /** Sign calls: which (user, petition) and whether an earlier attempt of the same call got 503. */
  user?: number;
  petition?: number;
  retried?: boolean;
}

interface Probe {
  mode: StopMode;
  sign: Outcome;
  read: Outcome;
  readyz: number;
  healthz: number;
  /** From `pg_ctl start` returning to /readyz answering 200 on the node. */
  readyAfterMs: number;
}

let postgres: PrivatePostgres;
let databaseUrl: string;
let node: ServerNode;
const cookies: string[] = [];
let probeCookie: string;
const petitionIds: number[] = [];
let probePetitionId: number;

async function call(method: 'GET' | 'POST', url: string, cookie?: string): Promise<Outcome> {
  const response = await fetch(`${node.base}${url}`, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(method === 'POST' ? { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' } : {}) },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
  const text = await response.text();
  let detail: string | undefined;
  if (!response.ok) {
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail;
    } catch {
      detail = text.slice(0, 200);
    }
  }
  return { status: response.status, detail, retryAfter: response.headers.get('retry-after') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  const url = new URL(postgres.adminUrl);
  url.pathname = '/petitions';
  databaseUrl = url.href;
  // A database of its own, migrated before the node starts, as a deployment would.
  const client = new pg.Client({ connectionString: postgres.adminUrl });
  await client.connect();
  await client.query('CREATE DATABASE petitions');
  await client.end();
  const setup = await openDatabase(databaseUrl);
  try {
    const users = createUserRepository(setup.db);
    const sessions = createSessionService(setup.db);
    const cookieName = cookieSettings(undefined).name;
    for (let i = 0; i <= USERS; i += 1) {
      const id = String(FIRST_USER + i);
      await users.upsert({ id, username: `restart${i}`, displayName: `Restart ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
      const cookie = `${cookieName}=${(await sessions.create(id, 'web')).token}`;
      if (i < USERS) cookies.push(cookie);
      else probeCookie = cookie;
    }
    for (let i = 0; i < PETITIONS; i += 1) petitionIds.push((await insertPetition(setup.db, { title: `Keep signing through restart ${i}` })).id);
    probePetitionId = (await insertPetition(setup.db, { title: 'Probe while the database is down' })).id;
  } finally {
    await setup.close();
  }
  node = await startServerNode({ DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '5', CLOSURE_INTERVAL_MS: '1000' });
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await postgres?.destroy();
});

describe('PostgreSQL restarted in the middle of a load', () => {
  it('answers 503 with a clear detail while it is down, recovers on its own, and loses or corrupts nothing', async () => {
    // Every (user, petition) pair once, interleaved so each petition is signed all along.
    const queue: { user: number; petition: number; retried: boolean }[] = [];
    for (let user = 0; user < USERS; user += 1) for (let p = 0; p < PETITIONS; p += 1) queue.push({ user, petition: petitionIds[(user + p) % PETITIONS]!, retried: false });
    const total = queue.length;
    const outcomes: Outcome[] = [];
    const readOutcomes: Outcome[] = [];
    const failures: string[] = [];
    let acknowledged = 0;
    let loadDone = false;

    const signer = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const outcome = await call('POST', `/api/petitions/${next.petition}/sign`, cookies[next.user]).catch((error: unknown) => {
          failures.push(`sign: ${String(error)}`);
          return null;
        });
        if (!outcome) continue;
        outcomes.push({ ...outcome, user: next.user, petition: next.petition, retried: next.retried });
        if (outcome.status === 503) {
          queue.push({ ...next, retried: true });
          await sleep(RETRY_MS);
        } else {
          acknowledged += 1;
        }
      }
    };
    const reader = async () => {
      for (let k = 0; !loadDone; k += 1) {
        const url = k % 2 ? `/api/petitions/${petitionIds[k % PETITIONS]}` : '/api/petitions?sort=newest';
        const outcome = await call('GET', url).catch((error: unknown) => {
          failures.push(`read: ${String(error)}`);
          return null;
        });
        if (outcome) readOutcomes.push(outcome);
        await sleep(outcome?.status === 503 ? RETRY_MS : 10);
      }
    };

    const probes: Probe[] = [];
    const restartAt = async (threshold: number, mode: StopMode) => {
      while (acknowledged < threshold) await sleep(5);
      await postgres.stop(mode);
      // The node has noticed by now (its next query fails at once); probe it while the load goes on.
      const sign = await call('POST', `/api/petitions/${probePetitionId}/sign`, probeCookie);
      const read = await call('GET', `/api/petitions/${probePetitionId}`);
      const readyz = (await call('GET', '/readyz')).status;
      const healthz = (await call('GET', '/healthz')).status;
      await sleep(PAUSE_MS);
      await postgres.start();
      const started = performance.now();
      while ((await call('GET', '/readyz')).status !== 200) {
        if (performance.now() - started > 20_000) throw new Error('the node did not become ready again within 20 s');
        await sleep(20);
      }
      probes.push({ mode, sign, read, readyz, healthz, readyAfterMs: performance.now() - started });
    };

    const restarts = (async () => {
      await restartAt(Math.floor(total * 0.15), 'fast');
      await restartAt(Math.floor(total * 0.55), 'immediate');
    })();
    const readers = reader();
    await Promise.all(Array.from({ length: CLIENTS }, signer));
    loadDone = true;
    await Promise.all([restarts, readers]);

    // The node never died and never stopped answering.
    expect(failures).toEqual([]);
    expect(node.process.exitCode).toBeNull();
    expect(node.process.signalCode).toBeNull();

    // While down: 503, the clear detail, Retry-After; /readyz not ready, /healthz alive.
    expect(probes.map((probe) => probe.mode)).toEqual(['fast', 'immediate']);
    for (const probe of probes) {
      expect(probe.sign).toMatchObject({ status: 503, detail: DATABASE_UNAVAILABLE, retryAfter: '2' });
      expect(probe.read).toMatchObject({ status: 503, detail: DATABASE_UNAVAILABLE, retryAfter: '2' });
      expect(probe.readyz).toBe(503);
      expect(probe.healthz).toBe(200);
    }
    const unavailable = [...outcomes, ...readOutcomes].filter((outcome) => outcome.status === 503);
    expect(outcomes.filter((outcome) => outcome.status === 503).length).toBeGreaterThan(0);
    expect(unavailable.filter((outcome) => outcome.detail !== DATABASE_UNAVAILABLE || outcome.retryAfter !== '2')).toEqual([]);
    // Otherwise: 200, or (only for a retry whose first attempt committed before its answer was lost) 409 already signed.
    expect(readOutcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 503)).toEqual([]);
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503 && !(o.status === 409 && o.retried && o.detail === ERRORS.alreadySigned))).toEqual([]);
    // Signing went on after each restart without the node being restarted.
    expect(acknowledged).toBe(total);

    const check = await openDatabase(databaseUrl);
    try {
      const rows = await check.db.selectFrom('signatures').select(['petition_id', 'user_id']).execute();
      const stored = new Set(rows.map((row) => `${row.petition_id}:${row.user_id}`));
      expect(stored.size).toBe(rows.length);
      for (const outcome of outcomes) {
        if (outcome.status === 200) expect(stored.has(`${outcome.petition}:${FIRST_USER + outcome.user!}`)).toBe(true);
      }
      for (const id of [...petitionIds, probePetitionId]) {
        const row = await check.db.selectFrom('petitions').select(['signature_count', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
        const signers = rows.filter((signature) => signature.petition_id === id).length;
        expect(signers).toBe(id === probePetitionId ? 0 : USERS);
        expect(row.signature_count).toBe(signers);
        expect(row.status).toBe(automaticStatus({ status: 'open', signatures: signers, governmentResponse: null, debateInfo: null }));
      }
    } finally {
      await check.close();
    }

    // Every table's heap and every B-tree index checked, each index against its table.
    const amcheck = await promisify(execFile)(
      path.join(postgres.bin, 'pg_amcheck'),
      ['--install-missing', '--heapallindexed', '-h', '127.0.0.1', '-p', String(postgres.port), '-U', 'postgres', '-d', 'petitions'],
      { encoding: 'utf8' },
    ).then(
      () => 'clean',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(amcheck).toBe('clean');
    console.log(`PostgreSQL restarts: ${probes.map((p) => `${p.mode}: node ready ${Math.round(p.readyAfterMs)} ms after start`).join('; ')}; ${unavailable.length} answers were 503 (${outcomes.filter((o) => o.status === 409).length} retries found their first attempt committed)`);
  }, 120_000);
});
