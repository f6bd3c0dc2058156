/**
 * PostgreSQL signing's database cost without HTTP (docs/operations.md#signing-batches): the real
 * PostgreSQL signing service, in this process, on a fresh copy of a database `npm run bench` kept
 * (BENCH_KEEP=1), with a given number of calls kept in flight. Without the HTTP server and the load
 * generator sharing the machine's cores, its figures spread by a few per cent from run to run, not
 * the benchmark's fifteen, so a change to the schema or the batch can be measured here first.
 *
 *   BENCH_KEEP=1 BENCH_ONLY=sign npm run bench -- --db postgres-only    # prints the kept database's URL
 *   npm run bench:signing -- <kept database URL>
 *   BENCH_IN_FLIGHT=20,50,100 BENCH_SIGNATURES=20000 BENCH_BEFORE_SQL='DROP INDEX …' npm run bench:signing -- <URL>
 *
 * Each run copies the kept database (CREATE DATABASE … TEMPLATE), applies BENCH_BEFORE_SQL to the
 * copy if set (an experiment: the kept database is never changed), checkpoints, then signs with
 * members and open petitions the benchmark's sign scenario did not pair, and drops the copy. It
 * prints signatures/s, PostgreSQL's CPU per signature (every backend of the copy, postgres-cpu.ts),
 * this process's CPU, WAL bytes, the share of HOT petition updates and calls per batch.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src-server/db/database.ts';
import { createPostgresSigningService } from '../../src-server/petitions/signing-postgres.ts';
import type { User } from '../../src-shared/domain/schemas.ts';
import { postgresCpuMicros } from './postgres-cpu.ts';
import { readPostgresWrites } from './postgres-writes.ts';

const template = process.argv[2];
if (!template?.startsWith('postgres')) throw new Error('Give the URL of a database `BENCH_KEEP=1 npm run bench` kept');
const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 20_000);
const IN_FLIGHT = (process.env.BENCH_IN_FLIGHT ?? '20,50,100').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BEFORE_SQL = process.env.BENCH_BEFORE_SQL;
/** Past the pairs of the benchmark's sign scenario (call k: member k, petition k, for k up to about 60,000). */
const FIRST_CALL = 200_000;

const templateName = new URL(template).pathname.slice(1);
const copyName = `${templateName}_signing_copy`;
const urlOf = (database: string) => Object.assign(new URL(template), { pathname: `/${database}` }).href;
const copyUrl = urlOf(copyName);

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface RunFigures {
  perSecond: number;
  postgresCpu: number;
  nodeCpu: number;
  walBytes: number;
  hotShare: number;
  callsPerBatch: number;
  refused: number;
}

async function run(inFlight: number): Promise<RunFigures> {
  await admin(`DROP DATABASE IF EXISTS ${copyName} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${copyName} TEMPLATE ${templateName}`);
  const opened = await openDatabase(copyUrl);
  try {
    const { db } = opened;
    if (BEFORE_SQL) await sql.raw(BEFORE_SQL).execute(db);
    const open = (await sql<{ id: number }>`SELECT id FROM petitions WHERE status = 'open' AND moderation_state IS NULL ORDER BY id`.execute(db)).rows.map((row) => row.id);
    const members = (await sql<{ id: string; username: string; display_name: string }>`SELECT id, username, display_name FROM users ORDER BY id`.execute(db)).rows;
    const signing = createPostgresSigningService({ db, now: () => new Date() });
    // Every run starts just after a checkpoint, so each pays the same full-page images.
    await sql`CHECKPOINT`.execute(db);
    const writesBefore = await readPostgresWrites(copyUrl);
    const postgresBefore = postgresCpuMicros(copyName);
    const nodeBefore = process.cpuUsage();
    const started = performance.now();
    let next = FIRST_CALL;
    let signed = 0;
    let refused = 0;
    const caller = async () => {
      while (next < FIRST_CALL + SIGNATURES) {
        const k = next++;
        const member = members[k % members.length]!;
        const user = { id: member.id, username: member.username, displayName: member.display_name } as User;
        try {
          await signing.sign(user, open[(k + Math.floor(k / members.length)) % open.length]!);
          signed += 1;
        } catch {
          // Already signed in the seed: an answer (409), counted apart.
          refused += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, caller));
    const seconds = (performance.now() - started) / 1000;
    const node = process.cpuUsage(nodeBefore);
    const postgresCpu = postgresCpuMicros(copyName) - postgresBefore;
    const writesAfter = await readPostgresWrites(copyUrl, true);
    const batches = signing.batchStats();
    return {
      perSecond: signed / seconds,
      postgresCpu: postgresCpu / signed,
      nodeCpu: (node.user + node.system) / signed,
      walBytes: (writesAfter.walBytes - writesBefore.walBytes) / signed,
      hotShare: (writesAfter.hotUpdates - writesBefore.hotUpdates) / Math.max(writesAfter.petitionUpdates - writesBefore.petitionUpdates, 1),
      callsPerBatch: batches.calls / Math.max(batches.batches, 1),
      refused,
    };
  } finally {
    await opened.close();
    await admin(`DROP DATABASE IF EXISTS ${copyName} WITH (FORCE)`);
  }
}

const fmt = (value: number, digits = 0) => value.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log(`PostgreSQL signing without HTTP: ${fmt(SIGNATURES)} signatures a run on copies of ${templateName}${BEFORE_SQL ? `, after: ${BEFORE_SQL}` : ''}`);
console.log('in flight  signatures/s  PG CPU µs/signature  node CPU µs/signature  WAL bytes/signature  HOT updates  calls a batch  refused');
for (let round = 0; round < ROUNDS; round += 1) {
  for (const inFlight of IN_FLIGHT) {
    const figures = await run(inFlight);
    console.log(
      [
        String(inFlight).padStart(9),
        fmt(figures.perSecond).padStart(12),
        fmt(figures.postgresCpu, 1).padStart(19),
        fmt(figures.nodeCpu, 1).padStart(21),
        fmt(figures.walBytes).padStart(19),
        `${(figures.hotShare * 100).toFixed(1)}%`.padStart(11),
        fmt(figures.callsPerBatch, 1).padStart(13),
        String(figures.refused).padStart(7),
      ].join('  '),
    );
  }
}
