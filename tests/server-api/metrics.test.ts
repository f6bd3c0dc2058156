/**
 * GET /metrics (both engines; docs/operations.md#metrics):
 * - with METRICS_TOKEN: no token or a wrong one is refused (401, WWW-Authenticate), the right one answers;
 * - the names are there: request durations by route pattern, signatures, queue depths, open
 *   live-event streams, the database pool (PostgreSQL), the process and Node metrics;
 * - they move under load: signatures, signing batches' calls and request counts by exactly what was done, the response
 *   backlog when petitions cross the threshold, the stream gauge while streams are open;
 * - in production without a token the public port has no /metrics; a loopback METRICS_PORT does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSE_THRESHOLD } from '../../src-shared/domain/constants.ts';
import { metricsServerOf } from '../../src-server/metrics/metrics-routes.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { TEST_ENGINE } from '../support/test-database.ts';
import { insertPetition } from './public-test-data.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const SIGN_ROUTE = '/api/petitions/:id/sign';
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ metrics: { token: TOKEN, port: undefined } });
});

afterAll(async () => {
  await api?.close();
});

async function scrape(target: TestApi = api): Promise<string> {
  const response = await target.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The value of one series, e.g. value(text, 'petitions_queue_depth', { queue: 'chat' }); null when absent. */
function value(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, wanted]) => found[key] === wanted)) return Number(match[4]);
  }
  return null;
}

describe('metrics token', () => {
  it('refuses a scrape without the token or with a wrong one, and answers the right one in the Prometheus text format', async () => {
    const none = await api.request({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.json()).toMatchObject({ status: 401, detail: 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>' });
    expect(none.body).not.toContain('http_request_duration_seconds');
    for (const authorization of [`Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer', `Bearer ${TOKEN.slice(1)}`]) {
      expect((await api.request({ method: 'GET', url: '/metrics', headers: { authorization } })).statusCode).toBe(401);
    }
    const ok = await api.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers['cache-control']).toBe('no-store');
  });
});

describe('metric names', () => {
  it('lists request durations, signatures, queue depths, streams, the pool and the process metrics', async () => {
    await api.request({ method: 'GET', url: '/api/petitions' });
    const text = await scrape();
    for (const name of [
      'http_request_duration_seconds',
      'petitions_signatures_total',
      'petitions_queue_depth',
      'petitions_sse_streams_open',
      'petitions_signing_batches',
      'petitions_signing_batch_calls',
      'petitions_signing_batch_seconds',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(value(text, 'http_request_duration_seconds_count', { route: '/api/petitions', method: 'GET', status_code: '200' })).toBe(1);
    for (const queue of ['chat', 'push', 'response_backlog', 'debate_backlog']) expect(value(text, 'petitions_queue_depth', { queue })).toBe(0);
    if (TEST_ENGINE === 'postgres') {
      expect(value(text, 'petitions_db_pool_max')).toBe(10);
      expect(value(text, 'petitions_db_pool_size')).toBeGreaterThan(0);
      // Read while the scrape's own queries run, so a caller may be waiting for a connection being opened.
      expect(value(text, 'petitions_db_pool_waiting')).toBeGreaterThanOrEqual(0);
      expect(value(text, 'petitions_db_pool_in_use')).not.toBeNull();
    } else {
      // One connection, no pool.
      expect(text).not.toContain('petitions_db_pool_');
    }
  });
});

describe('the Grafana dashboard', () => {
  it('queries only metrics the server exports', async () => {
    const dashboard = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../deploy/grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exported = new Set([...(await scrape()).matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap(([, name, type]) =>
      type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name!],
    ));
    const queried = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => [...target.expr.matchAll(/\b((?:http|petitions|process|nodejs)_\w+)\b/g)].map((m) => m[1]!)));
    expect(queried.length).toBeGreaterThanOrEqual(10);
    // The pool gauges exist on PostgreSQL only.
    const missing = queried.filter((name) => !exported.has(name) && !(TEST_ENGINE === 'sqlite' && name.startsWith('petitions_db_pool_')));
    expect(missing).toEqual([]);
  });
});

describe('metrics under load', () => {
  it('count exactly the signatures and requests made, the backlog they create, and the open streams', async () => {
    const before = await scrape();
    const petitions = [await insertPetition(api.context.db), await insertPetition(api.context.db)];
    const signers = RESPONSE_THRESHOLD + 5;
    const cookies = await Promise.all(
      Array.from({ length: signers }, (_, i) =>
        api.signIn({ id: String(610_000 + i), username: `metric${i}`, displayName: `Metric ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 }),
      ),
    );
    // Both petitions past the response threshold, in parallel; one repeat per signer that is refused (409).
    const calls = cookies.flatMap((cookie) => petitions.map((petition) => api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie })));
    const statuses = (await Promise.all(calls)).map((response) => response.statusCode);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const again = await api.request({ method: 'POST', url: `/api/petitions/${petitions[0]!.id}/sign`, cookie: cookies[0] });
    expect(again.statusCode).toBe(409);

    // Two live-event streams held open over real HTTP.
    const address = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const streams = [new AbortController(), new AbortController()];
    for (const stream of streams) {
      const response = await fetch(`${address}/api/site-status/events`, { signal: stream.signal });
      expect(response.status).toBe(200);
    }
    const after = await scrape();
    for (const stream of streams) stream.abort();

    const added = signers * petitions.length;
    expect((value(after, 'petitions_signatures_total') ?? 0) - (value(before, 'petitions_signatures_total') ?? 0)).toBe(added);
    // Every call, the refused one included, was carried by a batch; parallel calls share batches, and the batches took time.
    const delta = (name: string) => (value(after, name) ?? 0) - (value(before, name) ?? 0);
    expect(delta('petitions_signing_batch_calls')).toBe(added + 1);
    expect(delta('petitions_signing_batches')).toBeGreaterThanOrEqual(2);
    expect(delta('petitions_signing_batches')).toBeLessThanOrEqual(added + 1);
    expect(delta('petitions_signing_batch_seconds')).toBeGreaterThan(0);
    const signs = (text: string, status: string) => value(text, 'http_request_duration_seconds_count', { route: SIGN_ROUTE, method: 'POST', status_code: status }) ?? 0;
    expect(signs(after, '200') - signs(before, '200')).toBe(added);
    expect(signs(after, '409') - signs(before, '409')).toBe(1);
    // Durations are real: the sum over the sign calls is positive, and every call fell in some bucket.
    expect(value(after, 'http_request_duration_seconds_sum', { route: SIGN_ROUTE, method: 'POST', status_code: '200' })).toBeGreaterThan(0);
    expect(value(after, 'http_request_duration_seconds_bucket', { route: SIGN_ROUTE, method: 'POST', status_code: '200', le: '+Inf' })).toBe(signs(after, '200'));
    expect(value(after, 'petitions_queue_depth', { queue: 'response_backlog' })).toBe(2);
    expect(value(after, 'petitions_sse_streams_open')).toBe(2);
    // Unknown addresses share one series, whatever their path.
    await api.request({ method: 'GET', url: '/no/such/path/123' });
    await api.request({ method: 'GET', url: '/no/such/path/456' });
    const unmatched = await scrape();
    expect(unmatched).not.toContain('/no/such/path');
  });
});

describe('metrics in production without a token', () => {
  it('are not on the public port, only on METRICS_PORT on the loopback interface', async () => {
    const production = await startTestApi({ env: 'production', metrics: { token: undefined, port: 0 } });
    try {
      const publicPort = await production.request({ method: 'GET', url: '/metrics' });
      expect(publicPort.statusCode).toBe(404);
      const server = metricsServerOf(production.app);
      const address = server?.address();
      if (!address || typeof address !== 'object') throw new Error('no metrics listener');
      expect(address.address).toBe('127.0.0.1');
      const response = await fetch(`http://127.0.0.1:${address.port}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('# TYPE petitions_signatures_total counter');
      expect((await fetch(`http://127.0.0.1:${address.port}/api/petitions`)).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
