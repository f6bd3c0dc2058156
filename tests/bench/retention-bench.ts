/**
 * Benchmark of signer retention (docs/privacy.md#signer-retention): how long one pass takes to
 * anonymise the signers of many petitions closed long ago, and how long deleting a member who
 * signed many of them takes.
 *
 *   npm run bench:retention                          # SQLite
 *   BENCH_ENGINE=postgres npm run bench:retention    # PostgreSQL on 127.0.0.1:5432
 *
 * BENCH_PETITIONS closed petitions (200) with BENCH_SIGNATURES signatures each (500). Figures, not a
 * test: the machine is shared, so read them as orders of magnitude.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src-server/config.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { deleteMemberData } from '../../src-server/privacy/account-deletion.ts';
import { createSignerRetention } from '../../src-server/privacy/signer-retention.ts';
import { SYSTEM_ACTOR } from '../../src-server/terms/term-closures.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';

const PETITIONS = Number(process.env.BENCH_PETITIONS ?? 200);
const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 500);
const engine = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-retention-bench-'));
let postgres: TestDatabase | null = null;
const url = engine === 'postgres' ? (postgres = await createPostgresTestDatabase()).url : `sqlite:${path.join(dir, 'bench.db')}`;
const database = await openDatabase(url);
const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), databaseUrl: url };
const context = createAppContext({ config, db: database.db, dialect: database.dialect });
const db = database.db;

const closedAt = '2020-01-01T00:00:00.000Z';
const stamp = new Date().toISOString();
const users = Array.from({ length: SIGNATURES }, (_, i) => String(800_000_000 + i));
await db
  .insertInto('users')
  .values(users.map((id, i) => ({ id, username: `signer${i}`, display_name: `Signer Number ${i}`, avatar_url: null, citizen_rank: 1, government_rank: 0, groups_unavailable: 0, roles_checked_at: stamp, created_at: stamp, updated_at: stamp, account_created_at: null, account_verified: null })))
  .execute();
for (let p = 0; p < PETITIONS; p += 1) {
  const petition = await db
    .insertInto('petitions')
    .values({ title: `Bench petition ${p}`, description: 'A petition of the retention benchmark, closed long ago.', creator_name: 'Bench', creator_id: null, tags: '[]', category: 'General', term_id: null, status: 'closed', closure_reason: 'term_ended', closed_at: closedAt, signature_count: SIGNATURES, government_response: null, government_response_meta: null, debate_info: null, debate_info_meta: null, version: 1, created_at: '2019-12-01T00:00:00.000Z', updated_at: closedAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let start = 0; start < SIGNATURES; start += 500) {
    await db
      .insertInto('signatures')
      .values(users.slice(start, start + 500).map((id, i) => ({ petition_id: petition.id, user_id: id, username: `signer${start + i}`, display_name: `Signer Number ${start + i}`, signed_at: new Date(Date.parse('2019-12-02T00:00:00Z') + (start + i) * 1000).toISOString() })))
      .execute();
  }
}

// Deleting a member who signed every one of them (closed: anonymised in place).
const deletion = performance.now();
const deleted = await deleteMemberData(context, { userId: users[0]!, actor: SYSTEM_ACTOR, requestedBy: 'member' });
const deletionMs = performance.now() - deletion;

const started = performance.now();
const pass = await createSignerRetention(context).runPass();
const passMs = performance.now() - started;
const rows = pass?.anonymised ?? 0;
console.log(
  JSON.stringify(
    {
      engine,
      petitions: PETITIONS,
      signaturesPerPetition: SIGNATURES,
      deletion: { anonymised: deleted?.signaturesAnonymised, ms: Math.round(deletionMs) },
      retention: { anonymised: rows, petitions: pass?.petitions, seconds: Number((passMs / 1000).toFixed(2)), rowsPerSecond: Math.round(rows / (passMs / 1000)) },
    },
    null,
    2,
  ),
);

await database.close();
await postgres?.drop();
fs.rmSync(dir, { recursive: true, force: true });
