/**
 * What one flooding client costs everyone else, with the product's default limits (docs/limits.md).
 * Starts the real server (`src-server/main.ts`, demo data on a fresh SQLite file) in its own process,
 * then measures a well-behaved client at 127.0.0.2 (detail reads, one after another) three times:
 * alone, while 127.0.0.1 floods searches, and while 127.0.0.1 floods sign-in starts. Prints the
 * victim's p50/p95/p99, and how many of the flood's calls were answered and how many refused (429).
 *
 *   npm run bench:flood        knobs: FLOOD_SECONDS (default 5), FLOOD_PARALLEL (default 50)
 *
 * Each request opens its own connection (no keep-alive) from the chosen source address, so the
 * per-client connection share also plays its part. The flooder runs in a process of its own, so the
 * victim's figures are the server's, not the load generator's event loop.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { formatRateLimit, RATE_LIMITS } from '../../src-shared/rules/limits.ts';
import { startServerNode } from '../support/server-node.ts';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 5);
const PARALLEL = Number(process.env.FLOOD_PARALLEL ?? 50);

const agentFor = (localAddress: string) => new http.Agent({ keepAlive: false, localAddress } as http.AgentOptions);

function get(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

async function victim(base: string, seconds: number): Promise<{ p50: number; p95: number; p99: number; count: number; failed: number }> {
  const agent = agentFor('127.0.0.2');
  const times: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    const status = await get(`${base}/api/petitions/1`, agent);
    times.push(performance.now() - started);
    if (status !== 200) failed += 1;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), p99: percentile(times, 0.99), count: times.length, failed };
}

async function flood(url: (i: number) => string, seconds: number): Promise<Record<number, number>> {
  const agent = agentFor('127.0.0.1');
  const statuses: Record<number, number> = {};
  const end = performance.now() + seconds * 1000;
  let i = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (performance.now() < end) {
        const status = await get(url(i++), agent);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-flood-bench-'));
  const node = await startServerNode({ DATABASE_URL: `sqlite:${path.join(dir, 'flood.db')}`, SEED_DEMO_DATA: 'always' });
  try {
    console.log(`flood bench: ${SECONDS} s per phase, flooder ${PARALLEL} requests in parallel from 127.0.0.1, victim at 127.0.0.2`);
    console.log(`limits in force (defaults): ${Object.entries(RATE_LIMITS).map(([name, rule]) => `${name} ${formatRateLimit(rule)}`).join(', ')}`);
    const print = (label: string, v: Awaited<ReturnType<typeof victim>>, flooded?: Record<number, number>) =>
      console.log(
        `${label.padEnd(28)} victim: ${v.count} reads, p50 ${ms(v.p50)}, p95 ${ms(v.p95)}, p99 ${ms(v.p99)}, failed ${v.failed}` +
          (flooded ? `; flood answers by status: ${JSON.stringify(flooded)}` : ''),
      );
    print('alone', await victim(node.base, SECONDS));
    const [searching, searchFlood] = await Promise.all([victim(node.base, SECONDS), floodInChild(node.base, 'search')]);
    print('during a search flood', searching, searchFlood);
    const [signingIn, signInFlood] = await Promise.all([victim(node.base, SECONDS), floodInChild(node.base, 'signIn')]);
    print('during a sign-in flood', signingIn, signInFlood);
    const after = await get(`${node.base}/api/auth/roblox/login`, agentFor('127.0.0.3'));
    console.log(`a third address starting a sign-in after the floods: ${after}`);
  } finally {
    await node.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const FLOODS = {
  search: (base: string) => (i: number) => `${base}/api/petitions?search=petition%20${i % 500}&page=${1 + (i % 5)}`,
  signIn: (base: string) => () => `${base}/api/auth/roblox/login`,
};

function floodInChild(base: string, kind: keyof typeof FLOODS): Promise<Record<number, number>> {
  const child = fork(import.meta.filename, ['flood', kind, base], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => child.once('message', (message) => resolve(message as Record<number, number>)));
}

if (process.argv[2] === 'flood') {
  const kind = process.argv[3] as keyof typeof FLOODS;
  process.send?.(await flood(FLOODS[kind](process.argv[4]!), SECONDS));
  process.exit(0);
} else {
  await main();
}
