/**
 * `npm run bench:live`: what an open tab costs the server through the live stream of site state.
 * Starts the real server (bench-server.ts) in its own process on a fresh database, opens
 * LIVE_CONNECTIONS streams (half of them watching one petition's count), and prints:
 *   - server RSS and heap per open stream,
 *   - server CPU per tick while idle (state unchanged) and while the watched count changes every second,
 *   - the time from switching maintenance on (and off) through the API to every stream seeing it,
 *   - for comparison, the server CPU if the same tabs polled the status every 5 s instead.
 * Prints figures; asserts nothing.
 *
 * Knobs (environment): LIVE_CONNECTIONS (default 1000), LIVE_WINDOW (seconds per CPU window, default 10).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE, LIVE_EVENTS, LIVE_EVENTS_PATH, LIVE_TICK_MS } from '../../src-shared/domain/constants.ts';
import { loadConfig } from '../../src-server/config.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import type { LivePublisherStats } from '../../src-server/site/live-publisher.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { openEventStream, type EventStream, type StreamEvent } from '../support/sse-client.ts';

const CONNECTIONS = Number(process.env.LIVE_CONNECTIONS ?? 1000);
const WINDOW_S = Number(process.env.LIVE_WINDOW ?? 10);
/** bench-server.ts's administrator. */
const ADMIN_ID = '999999999';

interface LiveSample {
  live: LivePublisherStats;
  memory: NodeJS.MemoryUsage;
  cpu: NodeJS.CpuUsage;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function prepareDatabase(file: string): Promise<{ petitionId: number; adminCookie: string }> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${file}`, ADMIN_USER_ID: ADMIN_ID });
  const database = await openDatabase(config.databaseUrl);
  const context = createAppContext({ config, db: database.db, dialect: database.dialect });
  await seedTerm(context);
  const petition = await seedPetition(context, { title: 'The watched petition', signatures: 100 });
  await context.users.upsert({ id: ADMIN_ID, username: 'admin', displayName: 'Administrator', avatarUrl: null, citizenRank: 1, governmentRank: 0 });
  const { token } = await context.sessions.create(ADMIN_ID, 'web');
  await database.close();
  return { petitionId: petition.id, adminCookie: `${context.cookie.name}=${token}` };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-live-bench-'));
  const file = path.join(dir, 'bench.db');
  const { petitionId, adminCookie } = await prepareDatabase(file);

  const child = fork(path.join(import.meta.dirname, 'bench-server.ts'), [], {
    env: { ...process.env, BENCH_DATABASE_URL: `sqlite:${file}` },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => {
      // What the run's server enforced (bench-shared.ts: benchLimitEnvironment), printed with the figures.
      console.log(`limits for this run: ${JSON.stringify((message as { limits: unknown }).limits)}`);
      resolve((message as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const sample = () =>
    new Promise<LiveSample>((resolve) => {
      const listener = (message: unknown) => {
        if (!(message as Partial<LiveSample>).live) return;
        child.off('message', listener);
        resolve(message as LiveSample);
      };
      child.on('message', listener);
      child.send('live');
    });
  const api = (method: string, url: string, body?: unknown) =>
    fetch(`${baseUrl}${url}`, {
      method,
      headers: { cookie: adminCookie, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => {
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    });

  const cpuMs = (from: LiveSample, to: LiveSample) => (to.cpu.user + to.cpu.system - from.cpu.user - from.cpu.system) / 1000;

  try {
    console.log(`live stream bench: ${CONNECTIONS.toLocaleString('en-GB')} streams, ${WINDOW_S} s CPU windows, tick ${LIVE_TICK_MS} ms`);
    await sleep(1_000);
    const idleStart = await sample();
    await sleep(WINDOW_S * 1_000);
    const idleEnd = await sample();
    console.log(`server with no stream open: RSS ${mb(idleEnd.memory.rss)}, CPU ${(cpuMs(idleStart, idleEnd) / WINDOW_S).toFixed(2)} ms per second`);

    const opened = performance.now();
    const streams: EventStream[] = [];
    for (let start = 0; start < CONNECTIONS; start += 100) {
      const batch = Array.from({ length: Math.min(100, CONNECTIONS - start) }, (_, i) =>
        openEventStream(`${baseUrl}${LIVE_EVENTS_PATH}${(start + i) % 2 === 0 ? `?petition=${petitionId}` : ''}`),
      );
      streams.push(...(await Promise.all(batch)));
    }
    const isSite = (maintenance: boolean) => (event: StreamEvent) =>
      event.event === LIVE_EVENTS.site && (event.data as { maintenance: boolean }).maintenance === maintenance;
    await Promise.all(streams.map((stream) => stream.next(isSite(false), 30_000)));
    console.log(`opened ${streams.length} streams, each with its first state, in ${((performance.now() - opened) / 1000).toFixed(1)} s`);

    await sleep(2_000);
    const openStart = await sample();
    await sleep(WINDOW_S * 1_000);
    const openEnd = await sample();
    const ticks = openEnd.live.ticks - openStart.live.ticks;
    const perStreamRss = (openEnd.memory.rss - idleEnd.memory.rss) / streams.length;
    const perStreamHeap = (openEnd.memory.heapUsed - idleEnd.memory.heapUsed) / streams.length;
    console.log(
      `server with ${openEnd.live.subscribers} streams open: RSS ${mb(openEnd.memory.rss)} (+${kb(perStreamRss)} per stream), ` +
        `heap +${kb(perStreamHeap)} per stream`,
    );
    console.log(
      `  idle (nothing changes): ${ticks} ticks, CPU ${(cpuMs(openStart, openEnd) / ticks).toFixed(2)} ms per tick ` +
        `(${((cpuMs(openStart, openEnd) / (WINDOW_S * 1000)) * 100).toFixed(2)}% of one core, heartbeats included)`,
    );

    // The watched petition's count changes every second: a count frame goes to half the streams each tick.
    const busyStart = await sample();
    for (let second = 0; second < WINDOW_S; second++) {
      await api('POST', `/api/petitions/${petitionId}/${second % 2 === 0 ? 'sign' : 'unsign'}`, {});
      await sleep(1_000);
    }
    const busyEnd = await sample();
    const busyTicks = busyEnd.live.ticks - busyStart.live.ticks;
    const frames = busyEnd.live.framesWritten - busyStart.live.framesWritten;
    console.log(
      `  count changing every second: ${busyTicks} ticks, ${frames.toLocaleString('en-GB')} frames written, ` +
        `CPU ${(cpuMs(busyStart, busyEnd) / busyTicks).toFixed(2)} ms per tick (one signing request a second included)`,
    );

    for (const on of [true, false]) {
      const marks = streams.map((stream) => stream.events.length);
      const started = performance.now();
      await api('PUT', '/api/site-status', { maintenance: on });
      const seen = await Promise.all(streams.map((stream, i) => stream.next(isSite(on), 30_000, marks[i])));
      const latencies = seen.map((event) => event.at - started).sort((a, b) => a - b);
      console.log(
        `maintenance ${on ? 'on ' : 'off'} through the API -> all ${streams.length} streams saw it: ` +
          `p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
      );
      await sleep(1_500);
    }
    for (const stream of streams) stream.close();
    await sleep(1_000);

    // For comparison: the same tabs polling the status instead, every 5 s (the 5-second goal with no stream).
    const perSecond = streams.length / 5;
    const pollStart = await sample();
    const started = performance.now();
    let sent = 0;
    while (performance.now() - started < WINDOW_S * 1000) {
      const due = Math.floor(((performance.now() - started) / 1000) * perSecond) - sent;
      if (due > 0) {
        sent += due;
        await Promise.all(Array.from({ length: due }, () => fetch(`${baseUrl}/api/site-status`).then((response) => response.arrayBuffer())));
      }
      await sleep(20);
    }
    const pollEnd = await sample();
    const pollMsPerSecond = cpuMs(pollStart, pollEnd) / WINDOW_S;
    console.log(
      `for comparison, ${streams.length} tabs polling GET /api/site-status every 5 s (${perSecond} requests/s, keep-alive): ` +
        `CPU ${pollMsPerSecond.toFixed(1)} ms per second (${((pollMsPerSecond / 1000) * 100).toFixed(1)}% of one core)`,
    );
  } finally {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
