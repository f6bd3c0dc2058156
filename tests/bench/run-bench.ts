/**
 * `npm run bench`: seeds a fresh database with 100,000 petitions and 1,000,000 signatures, signs in
 * 120,000 citizens through the session service, starts the real server in a child process and
 * drives each hot endpoint with autocannon. Prints figures; it asserts nothing.
 *
 * Knobs (environment): BENCH_PETITIONS, BENCH_SIGNATURES, BENCH_USERS, BENCH_DURATION (seconds per
 * scenario), BENCH_CONNECTIONS, BENCH_PROFILE=1 (writes a CPU profile of the server to the temp dir),
 * BENCH_KEEP=1 (keeps the temp dir), BENCH_ONLY=sign,detail (runs only those scenarios and the bare route),
 * BENCH_BASELINE=0 (leaves the bare route out, e.g. to profile one endpoint alone).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { loadConfig } from '../../src-server/config.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import type { CountFlushStats } from '../../src-server/petitions/signature-counts.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { seedBenchData } from './bench-seed.ts';
import { BARE_ROUTE } from './bench-shared.ts';
import { runScenario, type LoadOptions, type Scenario, type ScenarioResult } from './load-scenarios.ts';

const PETITIONS = Number(process.env.BENCH_PETITIONS ?? 100_000);
const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 1_000_000);
const USERS = Number(process.env.BENCH_USERS ?? 120_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const PROFILE = process.env.BENCH_PROFILE === '1';
/** Comma-separated scenario names to run (the bare route always runs, as the baseline). */
const ONLY = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const BASELINE = process.env.BENCH_BASELINE !== '0';

function elapsed(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

async function createSessions(file: string, users: number): Promise<string[]> {
  const database = await openDatabase(`sqlite:${file}`);
  const cookieName = cookieSettings(undefined).name;
  const cookies: string[] = [];
  // One transaction around the session service's own inserts: same rows, a fraction of the commits.
  await database.db.transaction().execute(async (trx) => {
    const sessions = createSessionService(trx);
    for (let id = 1; id <= users; id += 1) {
      const { token } = await sessions.create(String(id), 'web');
      cookies.push(`${cookieName}=${token}`);
    }
  });
  await database.close();
  return cookies;
}

interface ServerSample {
  /** Server CPU time (user + system) so far, in microseconds. */
  cpuMicros: number;
  /** The written-behind signature counts so far (see signature-counts.ts). */
  countFlushes: CountFlushStats;
}

interface ServerHandle {
  baseUrl: string;
  sample(): Promise<ServerSample>;
  /** Stops the server; resolves with the count-flush figures once pending counts are written. */
  stop(): Promise<CountFlushStats | null>;
}

async function startServer(file: string, dir: string): Promise<ServerHandle> {
  const child = fork(path.join(import.meta.dirname, 'bench-server.ts'), [], {
    env: { ...process.env, BENCH_DATABASE_FILE: file },
    execArgv: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sample: () =>
      new Promise((resolve) => {
        const listener = (message: unknown) => {
          const { cpu, countFlushes } = message as { cpu?: NodeJS.CpuUsage; countFlushes: CountFlushStats };
          if (!cpu) return;
          child.off('message', listener);
          resolve({ cpuMicros: cpu.user + cpu.system, countFlushes });
        };
        child.on('message', listener);
        child.send('cpu');
      }),
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

function rotating<T>(items: readonly T[]): () => T {
  let index = 0;
  return () => items[index++ % items.length]!;
}

function scenarios(cookies: string[], openIds: number[], words: string[], termId: number): Scenario[] {
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
  const signHeaders = (cookie: string) => ({ cookie, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' });
  return [
    { name: 'bare route', next: () => ({ method: 'GET', path: BARE_ROUTE }) },
    { name: 'count', next: () => ({ method: 'GET', path: `/api/petitions/${randomId()}/count` }) },
    { name: 'detail', next: () => ({ method: 'GET', path: `/api/petitions/${randomId()}` }) },
    { name: 'list', next: () => ({ method: 'GET', path: `/api/petitions${listQueries()}` }) },
    { name: 'search', next: () => ({ method: 'GET', path: `/api/petitions?search=${encodeURIComponent(searchQuery())}` }) },
    {
      name: 'sign',
      next: () => {
        const k = signCount++;
        const cookie = cookies[k % cookies.length]!;
        const petition = openIds[(k + Math.floor(k / cookies.length)) % openIds.length]!;
        return { method: 'POST', path: `/api/petitions/${petition}/sign`, headers: signHeaders(cookie), body: '{}' };
      },
    },
  ];
}

function checkIntegrity(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  const stored = db.prepare('SELECT sum(signature_count) AS n FROM petitions').get() as { n: number };
  const rows = db.prepare('SELECT count(*) AS n FROM signatures').get() as { n: number };
  db.close();
  return stored.n === rows.n ? `OK (${rows.n.toLocaleString('en-GB')} signatures, counts match)` : `MISMATCH: counts ${stored.n} vs rows ${rows.n}`;
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-');

interface MeasuredResult extends ScenarioResult {
  /** Server CPU microseconds per request: the cost of the endpoint, whatever else runs on the machine. */
  cpuPerRequest: number;
}

function printReport(results: Map<string, MeasuredResult>): void {
  const bare = results.get('bare route');
  if (!bare) return;
  const targets: Record<string, { text: string; met: (r: ScenarioResult) => boolean }> = {
    'bare route': { text: 'baseline', met: () => true },
    sign: { text: '≥ 5,000/s, p99 < 50 ms, ≥ 40% of bare', met: (r) => r.okPerSecond >= 5000 && r.p99 < 50 && r.okPerSecond >= 0.4 * bare.okPerSecond },
    detail: { text: '≥ 15,000/s, ≥ 70% of bare', met: (r) => r.okPerSecond >= 15000 && r.okPerSecond >= 0.7 * bare.okPerSecond },
    count: { text: '≥ 15,000/s, ≥ 70% of bare', met: (r) => r.okPerSecond >= 15000 && r.okPerSecond >= 0.7 * bare.okPerSecond },
    list: { text: 'p95 < 20 ms', met: (r) => r.p95 < 20 },
    search: { text: 'p95 < 20 ms', met: (r) => r.p95 < 20 },
  };
  const header = ['scenario', '2xx/s', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'non-2xx', 'errors', 'CPU µs/req', '% of bare', 'target', 'met'];
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
    `${fmt((r.okPerSecond / bare.okPerSecond) * 100)}%`,
    targets[r.name]?.text ?? '',
    targets[r.name]?.met(r) ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i >= 10 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
  const ratio = (name: string) => {
    const result = results.get(name);
    return result ? `${fmt((result.okPerSecond / bare.okPerSecond) * 100)}%` : 'not run';
  };
  console.log(
    `\nsign/bare ${ratio('sign')} (target ≥ 40%); reads/bare: detail ${ratio('detail')}, count ${ratio('count')} (target ≥ 70%); list ${ratio('list')}, search ${ratio('search')}`,
  );
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-bench-'));
  const file = path.join(dir, 'bench.db');
  console.log(
    `petitions benchmark: ${os.cpus().length} CPUs, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, data in ${dir}`,
  );
  try {
    let started = performance.now();
    const migrated = await openDatabase(loadConfig({ DATABASE_URL: `sqlite:${file}` }).databaseUrl);
    await migrated.close();
    const seed = seedBenchData({ file, petitions: PETITIONS, signatures: SIGNATURES, signingUsers: USERS, now: new Date() });
    console.log(`seeded ${PETITIONS.toLocaleString('en-GB')} petitions, ${SIGNATURES.toLocaleString('en-GB')} signatures, ${USERS.toLocaleString('en-GB')} users in ${elapsed(started)}`);
    started = performance.now();
    const cookies = await createSessions(file, USERS);
    console.log(`created ${cookies.length.toLocaleString('en-GB')} sessions through the session service in ${elapsed(started)}`);

    const server = await startServer(file, dir);
    const options: LoadOptions = { baseUrl: server.baseUrl, connections: CONNECTIONS, durationSeconds: DURATION };
    const results = new Map<string, MeasuredResult>();
    try {
      const chosen = scenarios(cookies, seed.openPetitionIds, seed.searchWords, seed.currentTermId).filter(
        (scenario) => (scenario.name === 'bare route' ? BASELINE : !ONLY || ONLY.includes(scenario.name)),
      );
      for (const scenario of chosen) {
        await runScenario(scenario, { ...options, durationSeconds: 1 });
        const before = await server.sample();
        const result = await runScenario(scenario, options);
        const after = await server.sample();
        const cpuPerRequest = (after.cpuMicros - before.cpuMicros) / Math.max(1, result.total);
        results.set(scenario.name, { ...result, cpuPerRequest });
        console.log(
          `${scenario.name}: ${fmt(result.okPerSecond)} 2xx/s, p95 ${fmt(result.p95, 2)} ms, p99 ${fmt(result.p99, 2)} ms, non-2xx ${result.non2xx}, server CPU ${fmt(cpuPerRequest)} µs/request, load average ${os.loadavg()[0]!.toFixed(1)}`,
        );
        const rows = after.countFlushes.rowsWritten - before.countFlushes.rowsWritten;
        if (rows || after.countFlushes.pendingPetitions) {
          const ms = after.countFlushes.millisecondsSpent - before.countFlushes.millisecondsSpent;
          console.log(
            `  counts written behind: ${fmt(rows)} petition rows in ${fmt(ms)} ms during the run (in the CPU figure); ${fmt(after.countFlushes.pendingPetitions)} petitions still pending, written at the next flush`,
          );
        }
      }
      // The ratios use the bare route measured first; measured again last, it shows how far this
      // machine's speed drifted during the run.
      const bareScenario = chosen.find((scenario) => scenario.name === 'bare route');
      if (bareScenario && chosen.length > 1) {
        const again = await runScenario(bareScenario, options);
        const first = results.get('bare route')!;
        console.log(
          `bare route again at the end: ${fmt(again.okPerSecond)} 2xx/s (${fmt((again.okPerSecond / first.okPerSecond) * 100)}% of the first measurement)`,
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
    console.log(`\n${CONNECTIONS} connections, ${DURATION} s per scenario after a 1 s warm-up.`);
    printReport(results);
    console.log(`integrity after the run: ${checkIntegrity(file)}`);
    if (PROFILE) console.log(`server CPU profile written to ${dir}`);
  } finally {
    if (process.env.BENCH_KEEP !== '1' && !PROFILE) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
