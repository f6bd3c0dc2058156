/**
 * The console notices the backend is back by itself: while it is away nothing is sent and only
 * /readyz is asked, a few seconds apart; as soon as it answers, every waiting action goes. Real
 * backend, real HTTP; "away" is a forwarder refusing connections, or a proxy answering 502.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCoreWithIdle } from '../../src-main/node/console-core.ts';
import { PROBE_MAX_INTERVAL_MS, PROBE_MIN_INTERVAL_MS, probeIntervalMs } from '../../src-main/node/sync/backend-probe.ts';
import { StaffActionSchema } from '../../src-shared/console/staff-actions.ts';
import { seedPetition } from '../support/fixtures.ts';
import { freePort, startStack, type Stack } from '../support/stack.ts';
import { switchableForwarder } from '../support/switchable-forwarder.ts';
import { consoleSignIn, RecordingEvents, TestAuth, tempDir, type ConsoleSession } from './support.ts';

let stack: Stack;
let admin: ConsoleSession;
const cores: ConsoleCoreWithIdle[] = [];

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  admin = await consoleSignIn(stack, 'System Administrator');
});
afterAll(async () => {
  for (const core of cores) await core.close();
  await stack.close();
});

/** A fetch that records the path of every call the console makes. */
function countingFetch() {
  const calls: { path: string; at: number }[] = [];
  const counted: typeof fetch = (input, init) => {
    calls.push({ path: new URL(String(input)).pathname, at: Date.now() });
    return fetch(input, init);
  };
  return { calls, fetch: counted };
}

function openCore(apiBaseUrl: string, fetchImpl: typeof fetch) {
  const core = createConsoleCore({ dataDir: tempDir('console-probe-'), apiBaseUrl, auth: new TestAuth(admin), events: new RecordingEvents(), fetch: fetchImpl });
  cores.push(core);
  return core;
}

async function queueClosures(core: ConsoleCoreWithIdle, count: number): Promise<number[]> {
  const petitions = await Promise.all(Array.from({ length: count }, () => seedPetition(stack.context, { signatures: 3 })));
  const actions = petitions.map((p) => StaffActionSchema.parse({ kind: 'petition.setStatus', petitionId: p.id, baseVersion: 1, status: 'closed' }));
  await core.handlers['outbox:enqueue']({ actions, batch: false });
  return petitions.map((p) => p.id);
}

const states = async (core: ConsoleCoreWithIdle) => (await core.handlers['outbox:list']({ limit: 1000 })).entries.map((e) => e.state);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the probe’s pace', () => {
  it('is a twentieth of the outage so far, between 2 and 30 seconds', () => {
    expect(probeIntervalMs(0)).toBe(PROBE_MIN_INTERVAL_MS);
    expect(probeIntervalMs(30_000)).toBe(2_000);
    expect(probeIntervalMs(60_000)).toBe(3_000);
    expect(probeIntervalMs(5 * 60_000)).toBe(15_000);
    expect(probeIntervalMs(60 * 60_000)).toBe(PROBE_MAX_INTERVAL_MS);
  });
});

describe('the backend away, then back', () => {
  it('sends no action while it is away, only probes /readyz, and applies everything within seconds of it answering', async () => {
    const forwarder = await switchableForwarder(Number(new URL(stack.baseUrl).port), { up: false });
    const { calls, fetch: counted } = countingFetch();
    const core = openCore(forwarder.url, counted);
    const ids = await queueClosures(core, 12);
    core.start();
    await core.whenIdle();
    expect(core.connectivity().online).toBe(false);
    const firstTries = calls.filter((c) => c.path !== '/readyz').length;
    // One send per parallel slot found out; the rest never went.
    expect(firstTries).toBeGreaterThan(0);
    expect(firstTries).toBeLessThanOrEqual(4);

    await sleep(7_000);
    expect(calls.filter((c) => c.path !== '/readyz')).toHaveLength(firstTries);
    const probes = calls.filter((c) => c.path === '/readyz');
    // 2 s apart at first: about three in 7 s, never a storm.
    expect(probes.length).toBeGreaterThanOrEqual(2);
    expect(probes.length).toBeLessThanOrEqual(5);

    await forwarder.up();
    const backAt = Date.now();
    await expect.poll(() => states(core), { timeout: 10_000, interval: 50 }).toEqual(ids.map(() => 'applied'));
    const appliedAfterMs = Date.now() - backAt;
    expect(appliedAfterMs).toBeLessThan(5_000);
    expect(core.connectivity().online).toBe(true);
    const rows = await stack.context.db.selectFrom('petitions').select('status').where('id', 'in', ids).execute();
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'closed'));
    // Probing stops once the backend is back.
    const probesThen = calls.filter((c) => c.path === '/readyz').length;
    await sleep(3_000);
    expect(calls.filter((c) => c.path === '/readyz')).toHaveLength(probesThen);
    await forwarder.down();
  }, 60_000);

  it('treats a proxy’s 502 as the backend away: no backoff per action, sent as soon as /readyz answers 200', async () => {
    // What nginx does while the backend is down: answer 502 itself.
    let backendUp = false;
    const port = await freePort();
    const proxy = http.createServer((request, response) => {
      if (!backendUp) {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
        return;
      }
      const upstream = http.request(`${stack.baseUrl}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    try {
      const { calls, fetch: counted } = countingFetch();
      const core = openCore(`http://127.0.0.1:${port}`, counted);
      const ids = await queueClosures(core, 3);
      core.start();
      await core.whenIdle();
      const [entry] = (await core.handlers['outbox:list']({ limit: 10 })).entries;
      expect(entry).toMatchObject({ state: 'retry_wait', lastStatus: 502 });
      expect(core.connectivity().online).toBe(false);
      await sleep(2_500);
      expect(calls.filter((c) => c.path === '/readyz').length).toBeGreaterThanOrEqual(1);
      backendUp = true;
      const backAt = Date.now();
      await expect.poll(() => states(core), { timeout: 10_000, interval: 50 }).toEqual(ids.map(() => 'applied'));
      expect(Date.now() - backAt).toBeLessThan(5_000);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }, 60_000);
});
