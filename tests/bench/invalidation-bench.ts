/**
 * Benchmark of signature invalidation (docs/integrity.md#how-a-job-runs): one server node as
 * production runs it (`src-server/main.ts`, background jobs on) invalidates 100,000 signatures of
 * one petition while clients keep signing other petitions. Prints how long the job took (goal: under
 * 30 s) and the other petitions' signing latency (goal: p99 under 50 ms) during the job, next to the
 * same load without a job for comparison.
 *
 *   npm run bench:invalidation                          # SQLite
 *   BENCH_ENGINE=postgres npm run bench:invalidation    # PostgreSQL on 127.0.0.1:5432
 *
 * The load is steady: BENCH_CLIENTS clients (8) each signing BENCH_CLIENT_RATE times a second (15).
 * Figures, not a test: the machine is shared, so read them next to the baseline printed with them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import type { InvalidationJob } from '../../src-shared/domain/integrity-schemas.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { startServerNode } from '../support/server-node.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';

const INVALIDATED = Number(process.env.BENCH_SIGNATURES ?? 100_000);
const OTHER_PETITIONS = 20;
const USERS = 2_000;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
/** Each client signs at this rate (or as fast as answers come, if slower): a steady load, not a flood that measures queueing. */
const CLIENT_RATE_PER_S = Number(process.env.BENCH_CLIENT_RATE ?? 15);
const BASELINE_MS = 8_000;
const ADMIN_ID = '9000';
const engine = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-invalidation-bench-'));
let postgres: TestDatabase | null = null;
const url = engine === 'postgres' ? (postgres = await createPostgresTestDatabase()).url : `sqlite:${path.join(dir, 'bench.db')}`;

// ---- seed: the target petition with its signatures, other petitions, signers with sessions
const setup = await openDatabase(url);
const stamp = new Date().toISOString();
const cookieName = cookieSettings(undefined).name;
const sessions = createSessionService(setup.db, setup.dialect);
const petition = (title: string) => ({
  title,
  description: 'A petition of the invalidation benchmark, long enough to be valid.',
  creator_name: 'Bench',
  creator_id: '1',
  tags: '["Democracy"]',
  category: 'General',
  term_id: null,
  status: 'open',
  closure_reason: null,
  closed_at: null,
  signature_count: 0,
  government_response: null,
  government_response_meta: null,
  debate_info: null,
  debate_info_meta: null,
  version: 1,
  created_at: stamp,
  updated_at: stamp,
});
const target = (await setup.db.insertInto('petitions').values(petition('Pushed by alternate accounts')).returning('id').executeTakeFirstOrThrow()).id;
const others: number[] = [];
for (let i = 0; i < OTHER_PETITIONS; i += 1) others.push((await setup.db.insertInto('petitions').values(petition(`Ordinary petition ${i}`)).returning('id').executeTakeFirstOrThrow()).id);
const base = Date.now() - 2 * 86_400_000;
for (let start = 0; start < INVALIDATED; start += 2_000) {
  await setup.db
    .insertInto('signatures')
    .values(
      Array.from({ length: Math.min(2_000, INVALIDATED - start) }, (_, i) => ({
        petition_id: target,
        user_id: String(5_000_000 + start + i),
        username: `alt${start + i}`,
        display_name: `Alt ${start + i}`,
        signed_at: new Date(base + (start + i) * 100).toISOString(),
      })),
    )
    .execute();
}
await setup.db.updateTable('petitions').set({ signature_count: INVALIDATED }).where('id', '=', target).execute();
const users = [{ id: ADMIN_ID, username: 'sysadmin', display_name: 'Admin' }, ...Array.from({ length: USERS }, (_, i) => ({ id: String(6_000_000 + i), username: `member${i}`, display_name: `Member ${i}` }))];
for (let start = 0; start < users.length; start += 500) {
  await setup.db
    .insertInto('users')
    .values(users.slice(start, start + 500).map((u) => ({ ...u, avatar_url: null, citizen_rank: 1, government_rank: 0, groups_unavailable: 0, roles_checked_at: stamp, created_at: stamp, updated_at: stamp })))
    .execute();
}
const adminCookie = `${cookieName}=${(await sessions.create(ADMIN_ID, 'web')).token}`;
const cookies: string[] = [];
for (let i = 0; i < USERS; i += 1) cookies.push(`${cookieName}=${(await sessions.create(String(6_000_000 + i), 'web')).token}`);
await setup.close();

// ---- the node, and a load of signatures on the other petitions
const node = await startServerNode({ DATABASE_URL: url, ADMIN_USER_ID: ADMIN_ID });
const post = (cookie: string, route: string, body: unknown) =>
  fetch(`${node.base}${route}`, { method: 'POST', headers: { cookie, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' }, body: JSON.stringify(body) });

let nextPair = 0;
/** Signs (user, petition) pairs never used before, from CLIENTS clients one call after another, until `until()`. */
async function signingLoad(until: () => boolean): Promise<{ latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!until()) {
        const pair = nextPair++;
        const user = pair % USERS;
        const other = others[Math.floor(pair / USERS) % OTHER_PETITIONS]!;
        const started = performance.now();
        const reply = await post(cookies[user]!, `/api/petitions/${other}/sign`, {});
        await reply.arrayBuffer();
        const took = performance.now() - started;
        latencies.push(took);
        if (reply.status !== 200) failures += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 / CLIENT_RATE_PER_S - took)));
      }
    }),
  );
  return { latencies, failures };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const describe = (label: string, run: { latencies: number[]; failures: number }, seconds: number) =>
  `${label}: ${run.latencies.length} signatures on ${OTHER_PETITIONS} other petitions (${(run.latencies.length / seconds).toFixed(0)}/s), ` +
  `p50 ${percentile(run.latencies, 50).toFixed(1)} ms, p99 ${percentile(run.latencies, 99).toFixed(1)} ms, max ${Math.max(...run.latencies).toFixed(1)} ms, non-2xx ${run.failures}`;

try {
  // Warm-up, then the baseline: the same load with no job.
  await signingLoad(((end) => () => performance.now() > end)(performance.now() + 1_000));
  const baselineStart = performance.now();
  const baseline = await signingLoad(() => performance.now() - baselineStart > BASELINE_MS);
  const baselineSeconds = (performance.now() - baselineStart) / 1000;

  let finished = false;
  const loadStart = performance.now();
  const during = signingLoad(() => finished);
  const requested = await post(adminCookie, '/api/integrity/invalidations', { criteria: { petitionId: target }, reason: 'Benchmark' });
  if (requested.status !== 202) throw new Error(`request answered ${requested.status}: ${await requested.text()}`);
  const { id } = (await requested.json()) as InvalidationJob;
  let job: InvalidationJob;
  for (;;) {
    job = (await (await fetch(`${node.base}/api/integrity/invalidations/${id}`, { headers: { cookie: adminCookie } })).json()) as InvalidationJob;
    if (job.state !== 'queued' && job.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  finished = true;
  const load = await during;
  const loadSeconds = (performance.now() - loadStart) / 1000;
  const jobSeconds = (Date.parse(job.finishedAt ?? '') - Date.parse(job.startedAt ?? '')) / 1000;
  const count = (await (await fetch(`${node.base}/api/petitions/${target}/count`)).json()) as { signatures: number };

  console.log(`Invalidation benchmark (${engine}, ${os.cpus().length} cores, ${CLIENTS} signing clients)`);
  console.log(`job: ${job.state}, ${job.processed.toLocaleString('en-GB')} of ${job.total.toLocaleString('en-GB')} signatures in ${jobSeconds.toFixed(2)} s (goal < 30 s); target petition now counts ${count.signatures}`);
  console.log(describe('signing during the job', load, loadSeconds), '(goal p99 < 50 ms)');
  console.log(describe('signing without a job (baseline)', baseline, baselineSeconds));
} finally {
  await node.stop();
  await postgres?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}
