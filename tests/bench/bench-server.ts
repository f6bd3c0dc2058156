/**
 * The server under benchmark, in its own process so the load generator does not share its event
 * loop: the real buildApp on the seeded database, logger off, plus two routes that exist only
 * here: the bare route (what this machine's HTTP stack can do with the same hooks) and the signing
 * floor (see bench-shared.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../../src-server/app.ts';
import { loadConfig } from '../../src-server/config.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { signingRouteOptions } from '../../src-server/petitions/signing-routes.ts';
import { limitsSummary } from '../../src-server/http/limits-summary.ts';
import { BARE_ROUTE, benchLimitEnvironment, SIGN_FLOOR_PREFIX } from './bench-shared.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required');

const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATABASE_URL: url,
  ADMIN_USER_ID: '999999999',
  ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
  ...benchLimitEnvironment(),
});
const database = await openDatabase(config.databaseUrl, config.databasePool);
const context = createAppContext({ config, db: database.db, dialect: database.dialect, runBackgroundJobs: false, changeNotices: database.changeNotices });
const app = await buildApp(context, { logger: false });
// Under /api/ so it passes the same viewer, CSRF, maintenance and header hooks as the real routes.
app.get(BARE_ROUTE, async () => ({ ok: true }));
app.post(`${SIGN_FLOOR_PREFIX}:id`, signingRouteOptions('signingFloor', 'Signing floor', 'Benchmark only'), async () => ({ signatures: 0, signed: true }));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');

/**
 * On PostgreSQL a node that starts warms its petition and session caches in the background
 * (docs/operations.md#the-petition-read-cache): seconds of PostgreSQL's time that a slice measured
 * meanwhile would be charged with. The server reports itself only once both have finished.
 */
async function cachesWarmed(): Promise<string | null> {
  if (database.dialect !== 'postgres') return null;
  const started = performance.now();
  const warm = () => {
    const petitions = context.petitionCache.stats();
    const sessions = context.sessions.cacheStats();
    return petitions.warming === 'finished' && (!sessions || sessions.warming === 'finished');
  };
  while (!warm()) {
    if (performance.now() - started > 120_000) return 'caches still warming after 120 s: measuring anyway';
    await sleep(100);
  }
  const sessions = context.sessions.cacheStats();
  return `caches warm before measuring: ${context.petitionCache.stats().warmed} petitions, ${sessions?.warmed ?? 0} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

process.send?.({ port: address.port, limits: limitsSummary(context), warmed: await cachesWarmed() });

process.on('message', (message: unknown) => {
  // CPU time the server spent, so figures can be read per request even on a busy machine.
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage(), countFlushes: context.signatureCounts.stats(), signingBatches: context.signing.batchStats() });
  // The live stream's figures (live-stream-bench.ts): its publisher's counters, memory and CPU.
  if (message === 'live') process.send?.({ live: context.live.stats(), memory: process.memoryUsage(), cpu: process.cpuUsage() });
  // How many petition events exist: the response scenarios show they write one per call, whatever the signers.
  if (message === 'events') {
    void database.db
      .selectFrom('petition_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((row) => process.send?.({ events: Number(row.n) }));
  }
  // Writes the counts still pending now, so the slice that deferred them pays for them.
  if (message === 'settle') {
    void context.signatureCounts
      .settle()
      .catch((error: unknown) => console.error('writing pending signature counts failed', error))
      .then(() => process.send?.({ settled: true }));
  }
  if (message === 'stop') {
    // Closing writes the counts still pending; the parent prints what that cost.
    void app
      .close()
      .then(() => process.send?.({ countFlushesAtStop: context.signatureCounts.stats() }))
      .then(() => database.close())
      .then(() => process.exit(0));
  }
});
