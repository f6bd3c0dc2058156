/**
 * An invalidation survives its node being killed (SIGKILL) in the middle (docs/integrity.md#how-a-job-runs):
 * real server processes (`src-server/main.ts`, background jobs on) on the engine under test. After
 * the kill, a restarted node (on PostgreSQL two of them) takes the job over once the dead node's
 * lease runs out and finishes it exactly once: every matching signature moved once, counts exact,
 * one "finished" in the audit log, the other petition untouched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import type { InvalidationJob } from '../../src-shared/domain/integrity-schemas.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.ts';
import { insertPetition } from './public-test-data.ts';

const ADMIN_ID = '9000';
/** Several chunks on either engine (PostgreSQL's first chunk is 2,000), so the kill lands mid-job. */
const SIGNATURES = 8_000;
const LEASE_MS = 1_500;

let dir: string;
let database: TestDatabase;
let adminCookie: string;
let target: number;
let bystander: number;
const nodes: ServerNode[] = [];

async function seed(): Promise<void> {
  const setup = await openDatabase(database.url);
  try {
    await createUserRepository(setup.db).upsert({ id: ADMIN_ID, username: 'sysadmin', displayName: 'System Administrator', avatarUrl: null, citizenRank: 1, governmentRank: 0 });
    adminCookie = `${cookieSettings(undefined).name}=${(await createSessionService(setup.db, setup.dialect).create(ADMIN_ID, 'web')).token}`;
    target = (await insertPetition(setup.db)).id;
    bystander = (await insertPetition(setup.db)).id;
    const base = Date.parse('2026-11-01T00:00:00Z');
    for (let start = 0; start < SIGNATURES; start += 2_000) {
      const rows = Array.from({ length: Math.min(2_000, SIGNATURES - start) }, (_, i) => ({
        petition_id: target,
        user_id: String(3_000_000 + start + i),
        username: `crowd${start + i}`,
        display_name: `Crowd ${start + i}`,
        signed_at: new Date(base + (start + i) * 1000).toISOString(),
      }));
      await setup.db.insertInto('signatures').values(rows).execute();
    }
    await setup.db
      .insertInto('signatures')
      .values([1, 2, 3].map((i) => ({ petition_id: bystander, user_id: String(3_000_000 + i), username: `c${i}`, display_name: `C ${i}`, signed_at: new Date(base).toISOString() })))
      .execute();
    await setup.db.updateTable('petitions').set({ signature_count: SIGNATURES }).where('id', '=', target).execute();
    await setup.db.updateTable('petitions').set({ signature_count: 3 }).where('id', '=', bystander).execute();
  } finally {
    await setup.close();
  }
}

function startNode(): Promise<ServerNode> {
  return startServerNode({ DATABASE_URL: database.url, ADMIN_USER_ID: ADMIN_ID, INTEGRITY_JOB_LEASE_MS: String(LEASE_MS) }).then((node) => {
    nodes.push(node);
    return node;
  });
}

function call(node: ServerNode, method: string, url: string, body?: unknown) {
  return fetch(`${node.base}${url}`, {
    method,
    headers: { cookie: adminCookie, ...(method === 'GET' ? {} : { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function jobOn(node: ServerNode, id: number): Promise<InvalidationJob> {
  return (await call(node, 'GET', `/api/integrity/invalidations/${id}`)).json() as Promise<InvalidationJob>;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-crash-'));
  database = await createTestDatabase(dir, 'crash.db');
  await seed();
}, 120_000);

afterAll(async () => {
  for (const node of nodes) if (node.process.exitCode === null && node.process.signalCode === null) node.process.kill('SIGKILL');
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`an invalidation whose node is killed mid-job (${TEST_ENGINE})`, () => {
  it('finishes exactly once after a restart', async () => {
    const first = await startNode();
    const requested = await call(first, 'POST', '/api/integrity/invalidations', { criteria: { petitionId: target }, reason: 'Crash test' });
    expect(requested.status).toBe(202);
    const { id } = (await requested.json()) as InvalidationJob;
    let seen: InvalidationJob | null = null;
    for (let i = 0; i < 2_000; i += 1) {
      seen = await jobOn(first, id);
      if (seen.processed > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));
    expect(seen!.processed).toBeGreaterThan(0);
    expect(seen!.processed).toBeLessThan(SIGNATURES);

    // SQLite: one process owns the file, so one node comes back; PostgreSQL: two, racing for the job.
    const restarted = TEST_ENGINE === 'postgres' ? await Promise.all([startNode(), startNode()]) : [await startNode()];
    let done: InvalidationJob | null = null;
    for (const deadline = Date.now() + 150_000; Date.now() < deadline; ) {
      done = await jobOn(restarted[0]!, id);
      if (done.state === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(done).toMatchObject({ state: 'finished', total: SIGNATURES, processed: SIGNATURES, petitionsChanged: 1 });
    const count = await (await call(restarted[0]!, 'GET', `/api/petitions/${target}/count`)).json();
    expect(count).toMatchObject({ signatures: 0, status: 'open' });
    const audit = (await (await call(restarted[0]!, 'GET', '/api/audit-log?limit=200')).json()) as { items: { action: string; target_id: string | null }[] };
    const steps = audit.items.filter((entry) => entry.target_id === String(id)).map((entry) => entry.action);
    expect(steps.filter((action) => action === 'signatures.job_finished')).toHaveLength(1);
    expect(steps.filter((action) => action === 'signatures.job_started')).toHaveLength(1);
    expect(steps).toContain('signatures.job_resumed');
    await Promise.all(restarted.map((node) => node.stop()));

    const check = await openDatabase(database.url);
    try {
      const rows = await check.db.selectFrom('signatures').select((eb) => eb.fn.countAll<number>().as('n')).where('petition_id', '=', target).executeTakeFirstOrThrow();
      const kept = await check.db.selectFrom('invalidated_signatures').select(['user_id']).where('job_id', '=', id).execute();
      const petitions = await check.db.selectFrom('petitions').select(['id', 'signature_count']).orderBy('id').execute();
      expect(Number(rows.n)).toBe(0);
      expect(kept).toHaveLength(SIGNATURES);
      expect(new Set(kept.map((row) => row.user_id)).size).toBe(SIGNATURES);
      expect(petitions).toEqual([
        { id: target, signature_count: 0 },
        { id: bystander, signature_count: 3 },
      ]);
    } finally {
      await check.close();
    }
  }, 200_000);
});
