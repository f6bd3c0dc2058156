/**
 * `npm run bench`: seeds a fresh database with 100,000 petitions and 1,000,000 signatures, signs in
 * 120,000 citizens through the session service, starts the real server in a child process and
 * drives each hot endpoint with autocannon. Prints figures; it asserts nothing. Besides the bare
 * route (the HTTP stack alone, measured beside every scenario so the machine's drift shows) it
 * measures the signing floor (bench-shared.ts), so the share of signing's cost that is its database
 * work can be read off. The "target" and "met" columns state issue #24's targets, as ratios measured
 * within the run (CPU per request, which moves far less with the machine's load than rates do):
 * SQLite sign CPU ≤ 1.5 × the floor's and p99 < 50 ms, detail CPU ≤ 0.8 × the floor's; PostgreSQL on
 * one node sign ≥ 5,000/s with p99 < 50 ms and ≤ 60 µs of PostgreSQL CPU per signature, detail CPU
 * ≤ 1.5 × SQLite's (so it needs both engines in the run); a line under each table prints the ratios.
 *
 * Knobs (environment): BENCH_PETITIONS, BENCH_SIGNATURES, BENCH_USERS, BENCH_DURATION (seconds per
 * scenario), BENCH_CONNECTIONS, BENCH_PROFILE=1 (writes a CPU profile of the server to the temp dir, kept alone there),
 * BENCH_KEEP=1 (keeps the temp dir and the PostgreSQL databases), BENCH_ONLY=sign,detail (runs only those scenarios and the bare route),
 * BENCH_BASELINE=0 (leaves the bare route out, e.g. to profile one endpoint alone), BENCH_ROUNDS (slices per
 * scenario, each beside a slice of the bare route; default 4).
 *
 * The notification centre's scenarios (docs/notifications.md#performance): 'my feed', 'unread count' and
 * 'my petitions' as read by members who signed BENCH_SIGNED_PER_READER (1,000) petitions each
 * (BENCH_FEED_READERS of them, default 200), and a Cabinet Minister's response to petitions of 10-19
 * signers against responses to one petition of BENCH_MEGA_SIGNERS (300,000) signers: the response's p99
 * must not grow with its signers (fan-out on read: one event row per response). The members' reads run
 * with BENCH_MEMBER_CONNECTIONS (default 4), the responses with one: their targets are one member's
 * latency, not a saturated server's.
 *
 * `npm run bench -- --db postgres` (or `--db both`) copies the same data into a fresh database on the
 * local PostgreSQL (TEST_POSTGRES_URL, as the tests) and measures it after SQLite, printing both tables. `--nodes N`
 * (with --db postgres) adds a run of N server processes on one PostgreSQL database (a copy of its
 * own), the load generator spreading its connections over them as a load balancer would, after
 * PostgreSQL on one node; SQLite runs its one node, for comparison.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { CSRF_HEADER, CSRF_HEADER_VALUE, SIGNERS_PREVIEW_COUNT } from '../../src-shared/domain/constants.ts';
import { loadConfig } from '../../src-server/config.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import type { CountFlushStats } from '../../src-server/petitions/signature-counts.ts';
import type { SigningBatchStats } from '../../src-server/petitions/signing-batches.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { seedBenchData, type BenchSeedResult } from './bench-seed.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { BARE_ROUTE, SIGN_FLOOR_PREFIX } from './bench-shared.ts';
import { checkPostgresIntegrity, copySqliteToPostgres } from './copy-to-postgres.ts';
import { postgresCpuMicros } from './postgres-cpu.ts';
import { describeWrites, readPostgresWrites } from './postgres-writes.ts';
import { runSlice, summarise, type LoadOptions, type RequestShape, type Scenario, type ScenarioResult, type Slice } from './load-scenarios.ts';

const PETITIONS = Number(process.env.BENCH_PETITIONS ?? 100_000);
const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 1_000_000);
const USERS = Number(process.env.BENCH_USERS ?? 120_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const PROFILE = process.env.BENCH_PROFILE === '1';
/** Comma-separated scenario names to run (the bare route always runs, as the baseline). */
const ONLY = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const BASELINE = process.env.BENCH_BASELINE !== '0';
/** Slices per scenario, each paired with a slice of the bare route (see measureInterleaved). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const FEED_READERS = Number(process.env.BENCH_FEED_READERS ?? 200);
const SIGNED_PER_READER = Number(process.env.BENCH_SIGNED_PER_READER ?? 1_000);
const MEGA_SIGNERS = Number(process.env.BENCH_MEGA_SIGNERS ?? 300_000);
const MEMBER_CONNECTIONS = Number(process.env.BENCH_MEMBER_CONNECTIONS ?? 4);

function elapsed(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

async function createSessions(file: string, userIds: readonly string[]): Promise<string[]> {
  const database = await openDatabase(`sqlite:${file}`);
  const cookieName = cookieSettings(undefined).name;
  const cookies: string[] = [];
  // One transaction around the session service's own inserts: same rows, a fraction of the commits.
  await database.db.transaction().execute(async (trx) => {
    const sessions = createSessionService(trx);
    for (const id of userIds) {
      const { token } = await sessions.create(id, 'web');
      cookies.push(`${cookieName}=${token}`);
    }
  });
  await database.close();
  return cookies;
}

interface ServerSample {
  /** Server CPU time (user + system) so far, in microseconds. */
  cpuMicros: number;
  /** PostgreSQL's CPU time for the bench database so far (postgres-cpu.ts); NaN on SQLite, so that PostgreSQL's 0 still prints. */
  databaseCpuMicros: number;
  /** The written-behind signature counts so far (see signature-counts.ts). */
  countFlushes: CountFlushStats;
  /** The signing batches so far (signing-batches.ts). */
  signingBatches: SigningBatchStats;
}

interface ServerHandle {
  baseUrls: string[];
  sample(): Promise<ServerSample>;
  /** How many petition events the database holds. */
  events(): Promise<number>;
  /** Resolves once the server has written every pending signature count. */
  settleCounts(): Promise<void>;
  /** Stops the server; resolves with the count-flush figures once pending counts are written. */
  stop(): Promise<CountFlushStats | null>;
}

const NO_BATCHES: SigningBatchStats = Object.freeze({ batches: 0, calls: 0, seconds: 0 });

/** `a + b - minus`, figure by figure: nodes' batches summed, or a slice's added to a total. */
function combineBatches(a: SigningBatchStats, b: SigningBatchStats, minus: SigningBatchStats = NO_BATCHES): SigningBatchStats {
  return { batches: a.batches + b.batches - minus.batches, calls: a.calls + b.calls - minus.calls, seconds: a.seconds + b.seconds - minus.seconds };
}

/** N server processes on one database, measured as one: CPU summed, counts settled and nodes stopped together. */
async function startServers(url: string, dir: string, nodes: number): Promise<ServerHandle> {
  const servers: ServerHandle[] = [];
  // One after another, so the first has migrated (it is current already) before the next opens.
  for (let node = 0; node < nodes; node += 1) servers.push(await startServer(url, dir));
  if (servers.length === 1) return servers[0]!;
  return {
    baseUrls: servers.flatMap((server) => server.baseUrls),
    async sample() {
      const samples = await Promise.all(servers.map((server) => server.sample()));
      return samples.reduce((sum, sample) => ({
        cpuMicros: sum.cpuMicros + sample.cpuMicros,
        // Every node reads the same database's backends: counted once, not once per node.
        databaseCpuMicros: sum.databaseCpuMicros,
        countFlushes: {
          ...sum.countFlushes,
          rowsWritten: sum.countFlushes.rowsWritten + sample.countFlushes.rowsWritten,
          millisecondsSpent: sum.countFlushes.millisecondsSpent + sample.countFlushes.millisecondsSpent,
        },
        signingBatches: combineBatches(sum.signingBatches, sample.signingBatches),
      }));
    },
    settleCounts: async () => {
      await Promise.all(servers.map((server) => server.settleCounts()));
    },
    events: () => servers[0]!.events(),
    async stop() {
      const stopped = await Promise.all(servers.map((server) => server.stop()));
      return stopped.reduce((sum, flushes) =>
        sum && flushes ? { ...sum, rowsWritten: sum.rowsWritten + flushes.rowsWritten, millisecondsSpent: sum.millisecondsSpent + flushes.millisecondsSpent } : (sum ?? flushes),
      );
    },
  };
}

async function startServer(url: string, dir: string): Promise<ServerHandle> {
  const database = url.startsWith('postgres') ? new URL(url).pathname.slice(1) : null;
  const child = fork(path.join(import.meta.dirname, 'bench-server.ts'), [], {
    env: { ...process.env, BENCH_DATABASE_URL: url },
    execArgv: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => {
      // What the run's server enforced (bench-shared.ts: benchLimitEnvironment), printed with the figures.
      const { limits, warmed } = message as { limits: unknown; warmed: string | null };
      console.log(`limits for this run: ${JSON.stringify(limits)}`);
      if (warmed) console.log(warmed);
      resolve((message as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  /** Sends `request` and resolves with the first reply that `read` recognises. */
  const ask = <T>(request: string, read: (message: Record<string, unknown>) => T | undefined) =>
    new Promise<T>((resolve) => {
      const listener = (message: unknown) => {
        const answer = read(message as Record<string, unknown>);
        if (answer === undefined) return;
        child.off('message', listener);
        resolve(answer);
      };
      child.on('message', listener);
      child.send(request);
    });
  return {
    baseUrls: [`http://127.0.0.1:${port}`],
    sample: () =>
      ask('cpu', (message) => {
        const { cpu, countFlushes, signingBatches } = message as { cpu?: NodeJS.CpuUsage; countFlushes: CountFlushStats; signingBatches: SigningBatchStats };
        return cpu ? { cpuMicros: cpu.user + cpu.system, databaseCpuMicros: database ? postgresCpuMicros(database) : Number.NaN, countFlushes, signingBatches } : undefined;
      }),
    settleCounts: async () => {
      await ask('settle', (message) => (message.settled ? true : undefined));
    },
    events: () => ask('events', (message) => (typeof message.events === 'number' ? message.events : undefined)),
    stop: () =>
      new Promise((resolve) => {
        let atStop: CountFlushStats | null = null;
        child.on('message', (message) => {
          atStop = (message as { countFlushesAtStop?: CountFlushStats }).countFlushesAtStop ?? atStop;
        });
        child.once('exit', () => resolve(atStop));
        child.send('stop');
      }),
  };
}

interface MeasuredSlices {
  slices: Slice[];
  cpuMicros: number;
  databaseCpuMicros: number;
  /** CPU time of this process (autocannon, the load generator) while the slices ran. */
  loadCpuMicros: number;
  flushRows: number;
  flushMilliseconds: number;
  /** Signing batches written while the slices ran, the calls they carried and their time. */
  batches: SigningBatchStats;
}

const noSlices = (): MeasuredSlices => ({
  slices: [],
  cpuMicros: 0,
  databaseCpuMicros: 0,
  loadCpuMicros: 0,
  flushRows: 0,
  flushMilliseconds: 0,
  batches: NO_BATCHES,
});

function addSlices(into: MeasuredSlices, from: MeasuredSlices): void {
  into.slices.push(...from.slices);
  into.cpuMicros += from.cpuMicros;
  into.databaseCpuMicros += from.databaseCpuMicros;
  into.loadCpuMicros += from.loadCpuMicros;
  into.flushRows += from.flushRows;
  into.flushMilliseconds += from.flushMilliseconds;
  into.batches = combineBatches(into.batches, from.batches);
}

async function measureSlice(scenario: Scenario, server: ServerHandle, options: LoadOptions, into: MeasuredSlices): Promise<void> {
  const before = await server.sample();
  const loadBefore = process.cpuUsage();
  const slice = await runSlice(scenario, { ...options, durationSeconds: options.durationSeconds / ROUNDS });
  const load = process.cpuUsage(loadBefore);
  into.loadCpuMicros += load.user + load.system;
  // Counts deferred during this slice are written now, and their time is added to the slice's, so
  // a neighbouring bare-route slice never pays for them (and signing is charged for every write).
  const settling = performance.now();
  await server.settleCounts();
  into.slices.push({ ...slice, durationSeconds: slice.durationSeconds + (performance.now() - settling) / 1000 });
  const after = await server.sample();
  into.cpuMicros += after.cpuMicros - before.cpuMicros;
  into.databaseCpuMicros += after.databaseCpuMicros - before.databaseCpuMicros;
  into.flushRows += after.countFlushes.rowsWritten - before.countFlushes.rowsWritten;
  into.flushMilliseconds += after.countFlushes.millisecondsSpent - before.countFlushes.millisecondsSpent;
  into.batches = combineBatches(into.batches, after.signingBatches, before.signingBatches);
}

/**
 * This machine's speed drifts by a quarter or more within one run, so a ratio against a bare route
 * measured once would measure the drift. Each endpoint runs in ROUNDS slices, each next to a slice
 * of the bare route, in the order bare-endpoint, endpoint-bare, ... so a steady drift cancels out.
 */
async function measureInterleaved(
  endpoint: Scenario,
  bare: Scenario | undefined,
  server: ServerHandle,
  options: LoadOptions,
): Promise<{ endpoint: MeasuredSlices; bare: MeasuredSlices }> {
  const measured = { endpoint: noSlices(), bare: noSlices() };
  for (let round = 0; round < ROUNDS; round += 1) {
    const pair = round % 2 === 0 ? [bare, endpoint] : [endpoint, bare];
    for (const scenario of pair) {
      if (scenario) await measureSlice(scenario, server, options, scenario === endpoint ? measured.endpoint : measured.bare);
    }
  }
  return measured;
}

function rotating<T>(items: readonly T[]): () => T {
  let index = 0;
  return () => items[index++ % items.length]!;
}

interface MemberSessions {
  readers: string[];
  minister: string;
}

function scenarios(cookies: string[], openIds: number[], words: string[], termId: number, seed: BenchSeedResult, members: MemberSessions): Scenario[] {
  const randomId = () => 1 + Math.floor(Math.random() * PETITIONS);
  const listQueries = rotating([
    '',
    '?page=2',
    '?page=5',
    '?status=open',
    '?sort=newest',
    '?status=awaiting_response',
    '?tag=Budget',
    `?term=${termId}`,
    '?sort=alphabetical',
    '?status=with_response&sort=fewest_signatures',
  ]);
  let wordIndex = 0;
  const searchQuery = () => {
    wordIndex += 1;
    const word = words[wordIndex % words.length]!;
    const other = words[(wordIndex * 7) % words.length]!;
    // Alternate one word, a prefix while typing, and two words.
    switch (wordIndex % 3) {
      case 0:
        return word;
      case 1:
        return word.slice(0, 4);
      default:
        return `${word} ${other}`;
    }
  };
  // Request k uses session k mod S and petition (k + floor(k / S)) mod P: no (user, petition) pair repeats.
  let signCount = 0;
  let floorCount = 0;
  const signHeaders = (cookie: string) => ({ cookie, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' });
  const reader = rotating(members.readers);
  const smallPetition = rotating(seed.smallPetitionIds);
  let responses = 0;
  // A Cabinet Minister answering (each call edits the response: a version bump, an audit row, a chat message, one event).
  const respond = (petitionId: number): RequestShape => ({
    method: 'POST',
    path: `/api/petitions/${petitionId}/government-response`,
    headers: signHeaders(members.minister),
    body: JSON.stringify({ response_text: `The Government has considered this petition (answer ${++responses}).`, added_by_role: 'Home Secretary' }),
  });
  return [
    { name: 'bare route', next: () => ({ method: 'GET', path: BARE_ROUTE }) },
    { name: 'count', next: () => ({ method: 'GET', path: `/api/petitions/${randomId()}/count` }) },
    { name: 'detail', next: () => ({ method: 'GET', path: `/api/petitions/${randomId()}` }) },
    { name: 'list', next: () => ({ method: 'GET', path: `/api/petitions${listQueries()}` }) },
    { name: 'search', next: () => ({ method: 'GET', path: `/api/petitions?search=${encodeURIComponent(searchQuery())}` }) },
    {
      name: 'sign floor',
      next: () => {
        const k = floorCount++;
        const petition = openIds[k % openIds.length]!;
        return { method: 'POST', path: `${SIGN_FLOOR_PREFIX}${petition}`, headers: signHeaders(cookies[k % cookies.length]!), body: '{}' };
      },
    },
    {
      name: 'sign',
      next: () => {
        const k = signCount++;
        const cookie = cookies[k % cookies.length]!;
        const petition = openIds[(k + Math.floor(k / cookies.length)) % openIds.length]!;
        return { method: 'POST', path: `/api/petitions/${petition}/sign`, headers: signHeaders(cookie), body: '{}' };
      },
    },
    // The notification centre, as members who signed 1,000 petitions read it (before the responses add to it).
    { name: 'my feed', connections: MEMBER_CONNECTIONS, next: () => ({ method: 'GET', path: '/api/me/notifications', headers: { cookie: reader() } }) },
    { name: 'unread count', connections: MEMBER_CONNECTIONS, next: () => ({ method: 'GET', path: '/api/me/notifications/unread-count', headers: { cookie: reader() } }) },
    { name: 'my petitions', connections: MEMBER_CONNECTIONS, next: () => ({ method: 'GET', path: '/api/me/petitions?list=signed', headers: { cookie: reader() } }) },
    // One minister at a time: responses to one petition from several at once would meet each other's
    // versions (412 on PostgreSQL), which measures that race rather than the signers.
    { name: 'respond (few signers)', connections: 1, next: () => respond(smallPetition()) },
    { name: 'respond (most signers)', connections: 1, next: () => respond(seed.megaPetitionId) },
  ];
}

/**
 * Every session as touched now. The benchmark creates its 120,000 sessions in one instant, so five minutes
 * later every one falls due for its sliding touch (session-service.ts) at once, and whichever scenario runs
 * then (on the second engine: the signing floor and signing) writes a session row on every request. A site's
 * sessions fall due at scattered times, once per five minutes each; the touch is not what these scenarios measure.
 */
async function freshenSessions(postgresUrl: string | null, file: string): Promise<void> {
  const now = new Date().toISOString();
  if (!postgresUrl) {
    const db = new BetterSqlite3(file);
    try {
      db.prepare('UPDATE sessions SET last_seen_at = ?').run(now);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query('UPDATE sessions SET last_seen_at = $1', [now]);
    await client.query('VACUUM ANALYZE sessions');
  } finally {
    await client.end();
  }
}

/** Stored counts against signature rows, and stored first signers against a rebuild from the rows (as migration 0006 writes them). */
function checkIntegrity(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const stored = db.prepare('SELECT sum(signature_count) AS n FROM petitions').get() as { n: number };
    const rows = db.prepare('SELECT count(*) AS n FROM signatures').get() as { n: number };
    if (stored.n !== rows.n) return `MISMATCH: counts ${stored.n} vs rows ${rows.n}`;
    const stale = db
      .prepare(
        `SELECT count(*) AS n FROM petitions WHERE first_signers IS NOT (SELECT coalesce(json_group_array(json_object('id', user_id, 'username', username,
           'displayName', display_name, 'avatar', '/avatar/' || user_id, 'signed_at', signed_at)), '[]')
         FROM (SELECT user_id, username, display_name, signed_at FROM signatures WHERE petition_id = petitions.id ORDER BY signed_at, user_id LIMIT ${SIGNERS_PREVIEW_COUNT}))`,
      )
      .get() as { n: number };
    if (stale.n) return `MISMATCH: ${stale.n} petitions list other first signers than their rows`;
    return `OK (${rows.n.toLocaleString('en-GB')} signatures, counts and first signers match)`;
  } finally {
    db.close();
  }
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-');

interface MeasuredResult extends ScenarioResult {
  /** Server CPU microseconds per request: the cost of the endpoint, whatever else runs on the machine. */
  cpuPerRequest: number;
  /** PostgreSQL's CPU microseconds per request (NaN on SQLite, whose work is inside the server's). */
  databaseCpuPerRequest: number;
  /** The load generator's CPU microseconds per request: when it nears the server's, it is the limit, not the server. */
  loadCpuPerRequest: number;
  /** The bare route's rate in the slices interleaved with this scenario's: the base of its ratio. */
  bareAlongside: number;
}

function measuredResult(name: string, measured: MeasuredSlices, bareAlongside: number): MeasuredResult {
  const result = summarise(name, measured.slices);
  const perRequest = (micros: number) => micros / Math.max(1, result.total);
  return {
    ...result,
    cpuPerRequest: perRequest(measured.cpuMicros),
    databaseCpuPerRequest: perRequest(measured.databaseCpuMicros),
    loadCpuPerRequest: perRequest(measured.loadCpuMicros), bareAlongside };
}

/** A target of issue #24 as the bench judges it: null when this run lacks a figure it needs. */
interface Target {
  text: string;
  met: (r: MeasuredResult) => boolean | null;
}

/** One engine's results, and SQLite's from the same run (PostgreSQL's detail target is a ratio to it). */
interface ReportInput {
  engine: 'sqlite' | 'postgres';
  nodes: number;
  results: Map<string, MeasuredResult>;
  sqlite: Map<string, MeasuredResult> | undefined;
}

const SIGN_P99_MS = 50;
/** SQLite: signing's server CPU against the signing floor's (its database work within half of the rest). */
const SQLITE_SIGN_PER_FLOOR = 1.5;
/** SQLite: a petition page against the signing floor. */
const SQLITE_DETAIL_PER_FLOOR = 0.8;
const POSTGRES_SIGNATURES_PER_SECOND = 5_000;
/** PostgreSQL's CPU per signature, session lookup included. */
const POSTGRES_CPU_PER_SIGNATURE_US = 60;
/** PostgreSQL: a petition page's server CPU against SQLite's in the same run. */
const POSTGRES_DETAIL_PER_SQLITE = 1.5;

/** `a` over `b`'s CPU per request, or NaN when either is missing. */
function cpuRatio(a: MeasuredResult | undefined, b: MeasuredResult | undefined): number {
  return a && b ? a.cpuPerRequest / b.cpuPerRequest : Number.NaN;
}

const judged = (value: number, holds: (value: number) => boolean) => (Number.isFinite(value) ? holds(value) : null);

/** The targets of issue #24 (and the notification centre's), per engine: what the "target" and "met" columns say. */
function targetsFor({ engine, nodes, results, sqlite }: ReportInput): Record<string, Target> {
  const floor = results.get('sign floor');
  const member: Record<string, Target> = {
    list: { text: 'p95 < 20 ms', met: (r) => r.p95 < 20 },
    search: { text: 'p95 < 20 ms', met: (r) => r.p95 < 20 },
    'my feed': { text: `p95 < 20 ms (${MEMBER_CONNECTIONS} conns)`, met: (r) => r.p95 < 20 },
    'unread count': { text: `p95 < 5 ms (${MEMBER_CONNECTIONS} conns)`, met: (r) => r.p95 < 5 },
    'my petitions': { text: `p95 < 20 ms (${MEMBER_CONNECTIONS} conns)`, met: (r) => r.p95 < 20 },
    'respond (few signers)': { text: 'reference for the next row', met: () => true },
    'respond (most signers)': {
      text: 'p99 unchanged by signers (≤ 1.5 × few + 2 ms)',
      met: (r) => {
        const few = results.get('respond (few signers)');
        return few === undefined ? null : r.p99 <= few.p99 * 1.5 + 2;
      },
    },
    'bare route': { text: 'reference: the HTTP stack alone', met: () => true },
    'sign floor': { text: 'reference: sign without its database work', met: () => true },
    count: { text: 'reference', met: () => true },
  };
  if (engine === 'sqlite') {
    return {
      ...member,
      sign: {
        text: `CPU ≤ ${SQLITE_SIGN_PER_FLOOR} × sign floor's, p99 < ${SIGN_P99_MS} ms`,
        met: (r) => {
          const ratio = judged(cpuRatio(r, floor), (value) => value <= SQLITE_SIGN_PER_FLOOR);
          return ratio === null ? null : ratio && r.p99 < SIGN_P99_MS;
        },
      },
      detail: { text: `CPU ≤ ${SQLITE_DETAIL_PER_FLOOR} × sign floor's`, met: (r) => judged(cpuRatio(r, floor), (value) => value <= SQLITE_DETAIL_PER_FLOOR) },
    };
  }
  const oneNode = nodes === 1;
  return {
    ...member,
    sign: {
      text: oneNode
        ? `≥ ${fmt(POSTGRES_SIGNATURES_PER_SECOND)}/s, p99 < ${SIGN_P99_MS} ms, PG CPU ≤ ${POSTGRES_CPU_PER_SIGNATURE_US} µs`
        : `reference (targets are for one node)`,
      met: (r) =>
        !oneNode ||
        judged(r.databaseCpuPerRequest, (micros) => r.okPerSecond >= POSTGRES_SIGNATURES_PER_SECOND && r.p99 < SIGN_P99_MS && micros <= POSTGRES_CPU_PER_SIGNATURE_US),
    },
    detail: {
      text: oneNode ? `CPU ≤ ${POSTGRES_DETAIL_PER_SQLITE} × SQLite's detail` : 'reference (targets are for one node)',
      met: (r) => !oneNode || judged(cpuRatio(r, sqlite?.get('detail')), (value) => value <= POSTGRES_DETAIL_PER_SQLITE),
    },
  };
}

/** The ratios the targets are stated in, one line per engine. */
function ratiosLine({ engine, nodes, results, sqlite }: ReportInput): string {
  const ratio = (value: number) => (Number.isFinite(value) ? `${fmt(value, 2)}×` : 'not measured');
  const floor = results.get('sign floor');
  if (engine === 'sqlite') {
    return `ratios: sign CPU / sign floor CPU ${ratio(cpuRatio(results.get('sign'), floor))} (target ≤ ${SQLITE_SIGN_PER_FLOOR}); detail CPU / sign floor CPU ${ratio(cpuRatio(results.get('detail'), floor))} (target ≤ ${SQLITE_DETAIL_PER_FLOOR})`;
  }
  const sign = results.get('sign');
  const perSignature = sign && Number.isFinite(sign.databaseCpuPerRequest) ? `${fmt(sign.databaseCpuPerRequest)} µs` : 'not measured';
  const againstSqlite = sqlite
    ? ratio(cpuRatio(results.get('detail'), sqlite.get('detail')))
    : 'needs SQLite in the same run (--db both)';
  return `ratios${nodes > 1 ? ` (${nodes} nodes; the targets are for one)` : ''}: PostgreSQL CPU per signature ${perSignature} (target ≤ ${POSTGRES_CPU_PER_SIGNATURE_US} µs, the session lookup included; sign floor: ${floor && Number.isFinite(floor.databaseCpuPerRequest) ? `${fmt(floor.databaseCpuPerRequest)} µs` : 'not measured'}); detail server CPU / SQLite's ${againstSqlite} (target ≤ ${POSTGRES_DETAIL_PER_SQLITE}); sign CPU / sign floor CPU ${ratio(cpuRatio(sign, floor))}`;
}

function printReport(input: ReportInput): void {
  const { results } = input;
  if (!results.size) return;
  const share = (r: MeasuredResult) => r.okPerSecond / r.bareAlongside;
  const targets = targetsFor(input);
  const verdict = (r: MeasuredResult) => {
    const met = targets[r.name]?.met(r);
    return met === undefined ? '' : met === null ? 'n/a' : met ? 'yes' : 'NO';
  };
  const header = ['scenario', '2xx/s', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'non-2xx', 'errors', 'CPU µs/req', 'PG CPU µs/req', 'load gen µs/req', 'bare alongside', '% of bare', 'target', 'met'];
  const rows = [...results.values()].map((r) => [
    r.name === 'sign' ? 'sign (signatures/s)' : r.name,
    fmt(r.okPerSecond),
    fmt(r.p50, 2),
    fmt(r.p95, 2),
    fmt(r.p99, 2),
    fmt(r.total),
    fmt(r.non2xx),
    fmt(r.errors + r.timeouts),
    fmt(r.cpuPerRequest),
    fmt(r.databaseCpuPerRequest),
    fmt(r.loadCpuPerRequest),
    fmt(r.bareAlongside),
    `${fmt(share(r) * 100)}%`,
    targets[r.name]?.text ?? '',
    verdict(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i >= 13 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
  console.log(`\n${ratiosLine(input)}`);
}

/**
 * `--db postgres` (or `--db both`): the same data copied into PostgreSQL and measured after SQLite,
 * in one run (PostgreSQL's detail target is a ratio to SQLite's). `--db postgres-only` skips SQLite
 * (quicker A/B runs of PostgreSQL changes; that ratio is then not measured).
 */
function enginesFromArguments(): ('sqlite' | 'postgres')[] {
  const index = process.argv.indexOf('--db');
  const choice = index >= 0 ? process.argv[index + 1] : 'sqlite';
  if (choice === 'postgres-only') return ['postgres'];
  if (choice === 'postgres' || choice === 'both') return ['sqlite', 'postgres'];
  if (choice !== 'sqlite') throw new Error('--db takes sqlite, postgres (or both: the two engines), or postgres-only');
  return ['sqlite'];
}

/** `--nodes N`: how many server processes share the PostgreSQL database (1 unless given). */
function nodesFromArguments(engines: readonly string[]): number {
  const index = process.argv.indexOf('--nodes');
  if (index < 0) return 1;
  const nodes = Number(process.argv[index + 1]);
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error('--nodes takes a whole number ≥ 1');
  if (nodes > 1 && !engines.includes('postgres')) throw new Error('--nodes above 1 needs --db postgres: a SQLite file belongs to one process');
  return nodes;
}

interface BenchData {
  cookies: string[];
  members: MemberSessions;
  seed: BenchSeedResult;
}

async function benchEngine(url: string, dir: string, nodes: number, { cookies, members, seed }: BenchData): Promise<Map<string, MeasuredResult>> {
  const server = await startServers(url, dir, nodes);
  const options: LoadOptions = { baseUrls: server.baseUrls, connections: CONNECTIONS, durationSeconds: DURATION };
  const results = new Map<string, MeasuredResult>();
  try {
    const chosen = scenarios(cookies, seed.openPetitionIds, seed.searchWords, seed.currentTermId, seed, members).filter(
      (scenario) => (scenario.name === 'bare route' ? BASELINE : !ONLY || ONLY.includes(scenario.name)),
    );
    // Every scenario once first, so no measurement pays for JIT warm-up or cold pages.
    for (const scenario of chosen) await runSlice(scenario, { ...options, durationSeconds: 1 });
    await server.settleCounts();
    const bare = chosen.find((scenario) => scenario.name === 'bare route');
    const endpoints = chosen.filter((scenario) => scenario !== bare);
    const bareAll = noSlices();
    for (const scenario of endpoints) {
      const eventsBefore = scenario.name.startsWith('respond') ? await server.events() : 0;
      const writesBefore = url.startsWith('postgres') ? await readPostgresWrites(url, true) : null;
      const own = await measureInterleaved(scenario, bare, server, options);
      addSlices(bareAll, own.bare);
      const bareAlongside = bare ? summarise(bare.name, own.bare.slices).okPerSecond : Number.NaN;
      const result = measuredResult(scenario.name, own.endpoint, bareAlongside);
      results.set(scenario.name, result);
      console.log(
        `${scenario.name}: ${fmt(result.okPerSecond)} 2xx/s, p95 ${fmt(result.p95, 2)} ms, p99 ${fmt(result.p99, 2)} ms, non-2xx ${result.non2xx}, server CPU ${fmt(result.cpuPerRequest)} µs/request${Number.isNaN(result.databaseCpuPerRequest) ? '' : `, PostgreSQL CPU ${fmt(result.databaseCpuPerRequest)} µs/request`}; bare route alongside ${fmt(bareAlongside)} 2xx/s; load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
      if (writesBefore) console.log(`  ${describeWrites(writesBefore, await readPostgresWrites(url, true), result.total - result.non2xx)}`);
      if (scenario.name.startsWith('respond')) {
        const written = (await server.events()) - eventsBefore;
        console.log(`  petition events recorded: ${fmt(written)} for ${fmt(result.total - result.non2xx)} answered responses (one per response, whatever the signers: no row per signer)`);
      }
      const { batches } = own.endpoint;
      if (batches.batches) {
        // Calls per batch share each transaction's fixed cost: the first thing to read when a signature's database cost moves.
        console.log(
          `  signing batches: ${fmt(batches.batches)}, ${fmt(batches.calls / batches.batches, 1)} calls a batch, ${fmt((batches.seconds * 1000) / batches.batches, 2)} ms a batch (docs/operations.md#signing-batches)`,
        );
      }
      if (own.endpoint.flushRows) {
        console.log(
          `  counts written behind: ${fmt(own.endpoint.flushRows)} petition rows in ${fmt(own.endpoint.flushMilliseconds)} ms, written as each slice ended (in its time and CPU figures)`,
        );
      }
    }
    if (bare && !endpoints.length) addSlices(bareAll, (await measureInterleaved(bare, undefined, server, options)).endpoint);
    if (bare) {
      const result = measuredResult(bare.name, bareAll, summarise(bare.name, bareAll.slices).okPerSecond);
      results.set(bare.name, result);
      const rates = bareAll.slices.map((slice) => slice.ok / slice.durationSeconds);
      console.log(
        `bare route over the whole run: ${fmt(result.okPerSecond)} 2xx/s; its ${rates.length} slices ranged from ${fmt(Math.min(...rates))} to ${fmt(Math.max(...rates))} 2xx/s (how far this machine's speed drifted)`,
      );
    }
  } finally {
    const beforeStop = await server.sample();
    const atStop = await server.stop();
    const rows = atStop ? atStop.rowsWritten - beforeStop.countFlushes.rowsWritten : 0;
    if (atStop && rows) {
      const ms = atStop.millisecondsSpent - beforeStop.countFlushes.millisecondsSpent;
      console.log(`counts written behind at shutdown: ${fmt(rows)} petition rows in ${fmt(ms)} ms (${fmt((ms * 1000) / rows, 1)} µs per row)`);
    }
  }
  return results;
}

/** One engine on a number of nodes; each PostgreSQL run gets its own copy of the data. */
interface BenchRun {
  engine: 'sqlite' | 'postgres';
  nodes: number;
  label: string;
  postgres?: TestDatabase;
}

function runsFor(engines: readonly ('sqlite' | 'postgres')[], postgresNodes: number): BenchRun[] {
  return engines.flatMap((engine): BenchRun[] => {
    if (engine === 'sqlite') return [{ engine, nodes: 1, label: 'sqlite' }];
    // With --nodes N, PostgreSQL on one node too, in the same run: the machine's drift makes figures from two runs hard to compare.
    const one: BenchRun = { engine, nodes: 1, label: postgresNodes > 1 ? 'postgres, 1 node' : 'postgres' };
    return postgresNodes > 1 ? [one, { engine, nodes: postgresNodes, label: `postgres, ${postgresNodes} nodes` }] : [one];
  });
}

async function main(): Promise<void> {
  const engines = enginesFromArguments();
  const runs = runsFor(engines, nodesFromArguments(engines));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-bench-'));
  const file = path.join(dir, 'bench.db');
  console.log(
    `petitions benchmark: ${os.cpus().length} CPUs, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, data in ${dir}; runs: ${runs.map((run) => run.label).join('; ')}`,
  );
  try {
    let started = performance.now();
    const migrated = await openDatabase(loadConfig({ DATABASE_URL: `sqlite:${file}` }).databaseUrl);
    await migrated.close();
    const seed = seedBenchData({
      file,
      petitions: PETITIONS,
      signatures: SIGNATURES,
      signingUsers: USERS,
      feedReaders: FEED_READERS,
      signaturesPerReader: SIGNED_PER_READER,
      megaSigners: MEGA_SIGNERS,
      now: new Date(),
    });
    console.log(
      `seeded ${PETITIONS.toLocaleString('en-GB')} petitions, ${SIGNATURES.toLocaleString('en-GB')} signatures (${FEED_READERS} members with ${SIGNED_PER_READER.toLocaleString('en-GB')} each, one petition with ${MEGA_SIGNERS.toLocaleString('en-GB')}), ${seed.events.toLocaleString('en-GB')} petition events, ${USERS.toLocaleString('en-GB')} users in ${elapsed(started)}`,
    );
    started = performance.now();
    const cookies = await createSessions(file, Array.from({ length: USERS }, (_, i) => String(i + 1)));
    const [minister = '', ...readers] = await createSessions(file, [seed.ministerId, ...seed.feedReaderIds]);
    const members: MemberSessions = { readers, minister };
    console.log(`created ${(cookies.length + readers.length + 1).toLocaleString('en-GB')} sessions through the session service in ${elapsed(started)}`);
    for (const run of runs.filter((candidate) => candidate.engine === 'postgres')) {
      // Copied before any engine runs, so every run starts from the same rows (signing adds to them).
      started = performance.now();
      run.postgres = await createPostgresTestDatabase();
      const database = await openDatabase(run.postgres.url);
      await database.close();
      await copySqliteToPostgres(file, run.postgres.url);
      console.log(`copied the same data into PostgreSQL (for ${run.label}) in ${elapsed(started)}`);
    }

    const reports: { label: string; run: BenchRun; results: Map<string, MeasuredResult>; integrity: string }[] = [];
    for (const run of runs) {
      console.log(`\n--- ${run.label} ---`);
      const url = run.postgres?.url ?? `sqlite:${file}`;
      await freshenSessions(run.postgres?.url ?? null, file);
      const results = await benchEngine(url, dir, run.nodes, { cookies, members, seed });
      const integrity = run.postgres ? await checkPostgresIntegrity(url) : checkIntegrity(file);
      reports.push({ label: run.label, run, results, integrity });
    }
    console.log(
      `\n${CONNECTIONS} connections${runs.some((run) => run.nodes > 1) ? ' (over several nodes: spread evenly, connection i to node i mod N)' : ''}; ${DURATION} s per scenario in ${ROUNDS} slices, each beside a slice of the bare route, after a 1 s warm-up of every scenario. A ratio is against the bare route measured alongside; CPU µs/req is summed over the nodes.`,
    );
    const sqlite = reports.find((report) => report.run.engine === 'sqlite')?.results;
    for (const report of reports) {
      console.log(`\n=== ${report.label} ===`);
      printReport({ engine: report.run.engine, nodes: report.run.nodes, results: report.results, sqlite });
      console.log(`integrity after the run: ${report.integrity}`);
    }
    if (PROFILE) console.log(`server CPU profile written to ${dir}`);
  } finally {
    const keep = process.env.BENCH_KEEP === '1';
    for (const run of runs) {
      if (keep && run.postgres) console.log(`kept the PostgreSQL database of ${run.label}: ${run.postgres.url}`);
      else await run.postgres?.drop();
    }
    // The profiles are small; the database beside them is hundreds of megabytes and of no use once the run is over.
    const removed = keep ? [] : PROFILE ? fs.readdirSync(dir).filter((name) => !name.endsWith('.cpuprofile')).map((name) => path.join(dir, name)) : [dir];
    for (const target of removed) fs.rmSync(target, { recursive: true, force: true });
  }
}

await main();
