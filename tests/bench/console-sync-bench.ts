/**
 * `npm run bench:console`: queues 10,000 staff actions in the console's outbox while the backend is
 * down, starts the backend (a child process on its own SQLite file), lets the console core sync,
 * and prints how long that took, actions per second and the latency of each action's call (p50,
 * p99). Afterwards it checks every outbox row, every petition and every audit row. Prints figures;
 * the target (all 10,000 applied in under 30 s) is read, not asserted.
 *
 * The workload: 2,500 petitions, four actions each, each based on the version the previous one
 * leaves (a government response, debate information, assignment to a term, closing it); the
 * closing is queued as bulk overrides of 100 petitions, which sync sends as bulk-status calls.
 *
 * Knobs (environment): BENCH_CONSOLE_PETITIONS (default 2500), BENCH_CONSOLE_CONCURRENCY (default:
 * the console's own, 4), BENCH_KEEP=1 (keeps the temp dir).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { CONSOLE_DB_FILE } from '../../src-main/node/db/console-database.ts';
import { DEFAULT_SYNC_CONCURRENCY } from '../../src-main/node/sync/sync-engine.ts';
import type { AppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { StaffActionSchema, type StaffAction } from '../../src-shared/console/staff-actions.ts';
import { createBackendProcess } from '../support/backend-process.ts';
import { countRows, seedPetition, seedTerm } from '../support/fixtures.ts';
import { consoleSignIn } from '../console-core/support.ts';

const PETITIONS = Number(process.env.BENCH_CONSOLE_PETITIONS ?? 2500);
const CONCURRENCY = Number(process.env.BENCH_CONSOLE_CONCURRENCY ?? DEFAULT_SYNC_CONCURRENCY);
const KEEP = process.env.BENCH_KEEP === '1';
const ACTIONS_PER_PETITION = 4;
const TOTAL = PETITIONS * ACTIONS_PER_PETITION;
const AUDIT_ACTIONS = ['government_response.add', 'debate.add', 'petition.assign_term', 'petition.set_status'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-console-'));
const databaseFile = path.join(dir, 'backend.db');
// Latency is measured to the answer's headers (the body is a small JSON document read right after).
const line = (label: string, value: string) => console.log(`${label.padEnd(38)} ${value}`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

function actionsFor(petitionId: number, termId: number): StaffAction[] {
  return [
    { kind: 'response.save', petitionId, baseVersion: 1, body: { response_text: `Bench response ${petitionId}.`, added_by_role: 'Chancellor of the Exchequer' } },
    { kind: 'debate.save', petitionId, baseVersion: 2, body: { status: 'scheduled', date: '2026-12-01' } },
    { kind: 'petition.assignTerm', petitionId, baseVersion: 3, termId },
    { kind: 'petition.setStatus', petitionId, baseVersion: 4, status: 'closed' },
  ].map((action) => StaffActionSchema.parse(action));
}

async function main(): Promise<void> {
  console.log(`Console sync benchmark: ${TOTAL.toLocaleString('en-GB')} actions on ${PETITIONS.toLocaleString('en-GB')} petitions, concurrency ${CONCURRENCY}`);

  // The backend's database, with the petitions staff read before going offline.
  let started = performance.now();
  const seeding = await openDatabase(`sqlite:${databaseFile}`);
  const context = { db: seeding.db, now: () => new Date() } as unknown as AppContext;
  const term = await seedTerm(context, { name: 'Bench term' });
  const petitionIds: number[] = [];
  for (let i = 0; i < PETITIONS; i += 1) petitionIds.push((await seedPetition(context, { title: `Bench petition ${i}`, termId: null })).id);
  await seeding.close();
  line('seeded petitions', `${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Sign in once while online, then the backend goes away.
  const backend = await createBackendProcess(databaseFile);
  await backend.start();
  const admin = await consoleSignIn(backend, 'System Administrator');
  await backend.stop();

  const latencies: number[] = [];
  const timedFetch: typeof fetch = async (input, init) => {
    const start = performance.now();
    const response = await fetch(input, init);
    latencies.push(performance.now() - start);
    return response;
  };
  const core = createConsoleCore({
    dataDir: path.join(dir, 'console'),
    apiBaseUrl: backend.baseUrl,
    auth: { current: () => admin, reportUnauthorized: () => undefined, onChange: () => () => undefined },
    events: { emit: () => undefined },
    fetch: timedFetch,
    concurrency: CONCURRENCY,
  });

  started = performance.now();
  for (let i = 0; i < petitionIds.length; i += 100) {
    const actions = petitionIds.slice(i, i + 100).flatMap((id) => actionsFor(id, term.id));
    // Responses, debates and term assignments one by one; the closing as one bulk override per 100
    // petitions, as the administrator's multi-select does (the engine sends those as bulk calls).
    await core.handlers['outbox:enqueue']({ actions: actions.filter((a) => a.kind !== 'petition.setStatus'), batch: false });
    await core.handlers['outbox:enqueue']({ actions: actions.filter((a) => a.kind === 'petition.setStatus'), batch: true });
  }
  const queueMs = performance.now() - started;
  line('queued offline', `${TOTAL.toLocaleString('en-GB')} actions in ${(queueMs / 1000).toFixed(2)} s (${((queueMs * 1000) / TOTAL).toFixed(0)} µs each, 100 per transaction)`);

  await backend.start();
  const serverCpuBefore = backend.cpuMs();
  const consoleCpuBefore = process.cpuUsage();
  started = performance.now();
  core.start();
  await core.whenIdle();
  const syncMs = performance.now() - started;
  const consoleCpu = process.cpuUsage(consoleCpuBefore);
  const consoleCpuMs = (consoleCpu.user + consoleCpu.system) / 1000;
  const serverCpuAfter = backend.cpuMs();
  const serverCpuMs = serverCpuBefore !== null && serverCpuAfter !== null ? serverCpuAfter - serverCpuBefore : null;
  const { entries, summary } = await core.handlers['outbox:list']({ limit: 10_000 + TOTAL });
  await core.close();
  await backend.stop();

  latencies.sort((a, b) => a - b);
  // Per action: from the moment sync claimed its row to the moment its answer was recorded.
  const consoleDb = new BetterSqlite3(path.join(dir, 'console', CONSOLE_DB_FILE), { readonly: true });
  const perAction = (consoleDb.prepare(`SELECT updated_at - last_attempt_at AS ms FROM outbox WHERE state = 'applied'`).all() as { ms: number }[])
    .map((row) => row.ms)
    .sort((a, b) => a - b);
  consoleDb.close();
  line('sync duration', `${(syncMs / 1000).toFixed(2)} s (target < 30 s)`);
  line('throughput', `${((TOTAL * 1000) / syncMs).toFixed(0)} actions/s`);
  line('HTTP calls', `${latencies.length.toLocaleString('en-GB')} (bulk status calls carry several actions)`);
  line('latency per call', `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`);
  line('latency per action (claim→recorded)', `p50 ${percentile(perAction, 50)} ms, p99 ${percentile(perAction, 99)} ms, max ${perAction.at(-1) ?? 0} ms`);
  // CPU time does not depend on what else the machine runs, unlike the wall-clock figures above.
  line('CPU during sync: console', `${(consoleCpuMs / 1000).toFixed(2)} s (${((consoleCpuMs * 1000) / TOTAL).toFixed(0)} µs per action)`);
  if (serverCpuMs !== null) line('CPU during sync: backend', `${(serverCpuMs / 1000).toFixed(2)} s (${((serverCpuMs * 1000) / TOTAL).toFixed(0)} µs per action)`);
  line('machine load (1-min average)', `${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`);
  line('outbox afterwards', JSON.stringify(summary));

  // Every row applied, every petition where the actions leave it, one audit row per action.
  const problems: string[] = [];
  const applied = entries.filter((e) => e.state === 'applied').length;
  if (applied !== TOTAL) problems.push(`${applied} of ${TOTAL} outbox rows applied (${JSON.stringify(summary)})`);
  const check = await openDatabase(`sqlite:${databaseFile}`);
  try {
    const petitions = await check.db.selectFrom('petitions').select(['id', 'status', 'version', 'term_id', 'government_response', 'debate_info']).execute();
    const wrong = petitions.filter(
      (p) => p.status !== 'closed' || p.version !== 5 || p.term_id !== term.id || p.government_response !== `Bench response ${p.id}.` || !p.debate_info?.includes('scheduled'),
    );
    if (wrong.length > 0) problems.push(`${wrong.length} petitions not in their expected final state, e.g. ${JSON.stringify(wrong[0])}`);
    const audits = await check.db.selectFrom('audit_log').select(['action', 'target_id']).execute();
    const perKey = new Map<string, number>();
    for (const row of audits) perKey.set(`${row.action} ${row.target_id}`, (perKey.get(`${row.action} ${row.target_id}`) ?? 0) + 1);
    let missingOrDoubled = 0;
    for (const id of petitionIds) for (const action of AUDIT_ACTIONS) if (perKey.get(`${action} ${id}`) !== 1) missingOrDoubled += 1;
    if (audits.length !== TOTAL) problems.push(`${audits.length} audit rows for ${TOTAL} actions`);
    if (missingOrDoubled > 0) problems.push(`${missingOrDoubled} actions without exactly one audit row`);
    line('server idempotency keys stored', String(await countRows(check.db, 'idempotency_keys')));
    line('audit rows', `${audits.length.toLocaleString('en-GB')} (one per action: ${missingOrDoubled === 0 ? 'yes' : 'NO'})`);
  } finally {
    await check.close();
  }
  await backend.close();
  if (!KEEP) fs.rmSync(dir, { recursive: true, force: true });
  line('checks', problems.length === 0 ? 'all rows applied once, all counts right' : `FAILED: ${problems.join('; ')}`);
  if (problems.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
