/**
 * A node started before its database can answer (always PostgreSQL, on a server of the test's own:
 * tests/support/private-postgres.ts). docs/operations.md#starting-before-the-database:
 * - PostgreSQL down at start: the node stays up, /healthz 200, /readyz 503 with the reason, other
 *   calls 503 with Retry-After; once PostgreSQL starts, the node becomes ready by itself and serves;
 * - every connection slot taken (max_connections): the same, with "too many clients" as the reason;
 * - still unreachable after DATABASE_START_TIMEOUT_S: the node exits non-zero with a clear message.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE } from '../../src-server/db/unavailable.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';

let postgres: PrivatePostgres;
let databaseUrl: string;
const nodes: ServerNode[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function probe(node: ServerNode, path: string): Promise<{ status: number; detail?: string; retryAfter: string | null }> {
  const response = await fetch(`${node.base}${path}`);
  const body = (await response.json()) as { detail?: string };
  return { status: response.status, detail: body.detail, retryAfter: response.headers.get('retry-after') };
}

async function waitUntilReady(node: ServerNode, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    // The port changes hands once (the waiting responder to the application): a refused connection then is expected.
    const status = await fetch(`${node.base}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) return performance.now() - started;
    if (node.process.exitCode !== null) throw new Error(`the node exited (${node.process.exitCode}): ${node.stderr()}`);
    if (performance.now() - started > withinMs) throw new Error(`the node was not ready within ${withinMs} ms`);
    await sleep(50);
  }
}

function exitOf(node: ServerNode): Promise<number | null> {
  if (node.process.exitCode !== null) return Promise.resolve(node.process.exitCode);
  return new Promise((resolve) => node.process.once('exit', (code) => resolve(code)));
}

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE petitions');
  await admin.end();
  const url = new URL(postgres.adminUrl);
  url.pathname = '/petitions';
  databaseUrl = url.href;
}, 120_000);

afterAll(async () => {
  for (const node of nodes) await node.stop();
  await postgres?.destroy();
});

describe('starting a node before its database answers', () => {
  it('waits while PostgreSQL is down (healthy, not ready, saying why) and serves once it starts', async () => {
    await postgres.stop('fast');
    const node = await startServerNode({ DATABASE_URL: databaseUrl, DATABASE_START_TIMEOUT_S: '60' }, { until: 'healthy' });
    nodes.push(node);
    // Give it a few failed attempts.
    await sleep(1_500);
    expect(await probe(node, '/healthz')).toMatchObject({ status: 200 });
    const readyz = await probe(node, '/readyz');
    expect(readyz.status).toBe(503);
    expect(readyz.detail).toMatch(/^Waiting for the database \(attempt \d+, giving up in \d+ s\): .*ECONNREFUSED/);
    expect(await probe(node, '/api/petitions')).toEqual({ status: 503, detail: DATABASE_UNAVAILABLE, retryAfter: '2' });
    expect(node.process.exitCode).toBeNull();

    await postgres.start();
    const readyAfterMs = await waitUntilReady(node, 20_000);
    const list = await fetch(`${node.base}/api/petitions`);
    expect(list.status).toBe(200);
    expect(node.process.exitCode).toBeNull();
    console.log(`start before database: ready ${Math.round(readyAfterMs)} ms after PostgreSQL started`);
    await node.stop();
  }, 90_000);

  it('waits while every connection slot is taken, and serves once one is free', async () => {
    // Fill every slot (superuser reserved ones included: the node connects as the superuser too).
    const hogs: pg.Client[] = [];
    for (;;) {
      const client = new pg.Client({ connectionString: postgres.adminUrl });
      client.on('error', () => {});
      const connected = await client.connect().then(() => true, (error: { code?: string }) => {
        if (error.code !== '53300') throw error;
        return false;
      });
      if (!connected) break;
      hogs.push(client);
    }
    expect(hogs.length).toBeGreaterThan(10);
    try {
      const node = await startServerNode({ DATABASE_URL: databaseUrl, DATABASE_START_TIMEOUT_S: '60' }, { until: 'healthy' });
      nodes.push(node);
      await sleep(1_000);
      const readyz = await probe(node, '/readyz');
      expect(readyz.status).toBe(503);
      expect(readyz.detail).toMatch(/too many clients already \(53300\)/);
      expect(node.process.exitCode).toBeNull();
      // Free the slots: the node gets its connections on its next attempt.
      await Promise.all(hogs.splice(0).map((client) => client.end()));
      await waitUntilReady(node, 20_000);
      expect((await fetch(`${node.base}/api/petitions`)).status).toBe(200);
      await node.stop();
    } finally {
      await Promise.all(hogs.map((client) => client.end()));
    }
  }, 90_000);

  it('exits non-zero with a clear message when the database is still away after DATABASE_START_TIMEOUT_S', async () => {
    await postgres.stop('fast');
    const started = performance.now();
    const node = await startServerNode({ DATABASE_URL: databaseUrl, DATABASE_START_TIMEOUT_S: '2' }, { until: 'healthy' });
    nodes.push(node);
    const code = await exitOf(node);
    const tookMs = performance.now() - started;
    expect(code).toBe(1);
    expect(node.stderr()).toMatch(/The database did not answer within 2 s of starting \(DATABASE_START_TIMEOUT_S\); giving up\. Last error: .*ECONNREFUSED/);
    // Bounded: it gave up after about the timeout, not at once and not much later.
    expect(tookMs).toBeGreaterThan(1_500);
    expect(tookMs).toBeLessThan(30_000);
    await postgres.start();
  }, 60_000);

  it('still fails at once on a mistake a retry cannot fix (a database that does not exist)', async () => {
    const url = new URL(databaseUrl);
    url.pathname = '/no_such_database';
    const started = performance.now();
    const node = await startServerNode({ DATABASE_URL: url.href, DATABASE_START_TIMEOUT_S: '60' }, { until: 'spawned' });
    nodes.push(node);
    expect(await exitOf(node)).toBe(1);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(node.stderr()).toMatch(/database "no_such_database" does not exist/);
  }, 30_000);
});
