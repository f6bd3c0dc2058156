/**
 * A backup taken while a server node signs under load, then restored (both engines; docs/operations.md#backups):
 * - `npm run backup` runs while signatures keep being acknowledged before, during and after it;
 * - `npm run restore` is refused while the node serves, and changes nothing;
 * - with the node stopped it restores: every signature acknowledged before the backup started is
 *   there, the later ones are not all there (a copy of one moment, not of the end), each stored
 *   count equals a recount, and the database passes its integrity check (SQLite's integrity_check,
 *   PostgreSQL's pg_amcheck); a node started on it serves the same counts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import { postgresBinDir } from '../support/private-postgres.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.ts';
import { insertPetition } from './public-test-data.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');

const USERS = 400;
const PETITIONS = 8;
const CLIENTS = 8;
const FIRST_USER = 720_000;
/** Signatures the load goes on acknowledging after the backup finished, so the backup ran in its middle. */
const AFTER_BACKUP = 150;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-backup-'));
let database: TestDatabase;
let node: ServerNode | null = null;
const cookies: string[] = [];
const petitionIds: number[] = [];
/** Databases the restore set aside (PostgreSQL), dropped at the end. */
const asideDatabases: string[] = [];

async function command(script: 'backup' | 'restore', args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(NODE, [path.join(ROOT, 'scripts', `${script}.ts`), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url },
    encoding: 'utf8',
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: Number(error.code ?? 1), stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
}

async function sign(user: number, petition: number): Promise<number> {
  const response = await fetch(`${node!.base}/api/petitions/${petition}/sign`, {
    method: 'POST',
    headers: { cookie: cookies[user]!, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
    body: '{}',
  });
  await response.arrayBuffer();
  return response.status;
}

async function integrity(): Promise<string> {
  if (TEST_ENGINE === 'sqlite') {
    const sqlite = new BetterSqlite3(database.url.replace(/^sqlite:/, ''), { readonly: true });
    try {
      return (sqlite.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).join('; ');
    } finally {
      sqlite.close();
    }
  }
  const url = new URL(database.url);
  return run(path.join(await postgresBinDir(), 'pg_amcheck'), ['--install-missing', '--heapallindexed', '-h', url.hostname, '-p', url.port || '5432', '-U', url.username || 'postgres', '-d', url.pathname.slice(1)], {
    encoding: 'utf8',
  }).then(
    () => 'ok',
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
  );
}

beforeAll(async () => {
  database = await createTestDatabase(dir, 'petitions.db');
  const setup = await openDatabase(database.url);
  try {
    const users = createUserRepository(setup.db);
    const sessions = createSessionService(setup.db, setup.dialect);
    const cookieName = cookieSettings(undefined).name;
    for (let i = 0; i < USERS; i += 1) {
      const id = String(FIRST_USER + i);
      await users.upsert({ id, username: `backup${i}`, displayName: `Backup ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
      cookies.push(`${cookieName}=${(await sessions.create(id, 'web')).token}`);
    }
    for (let i = 0; i < PETITIONS; i += 1) petitionIds.push((await insertPetition(setup.db, { title: `Signed through a backup ${i}` })).id);
  } finally {
    await setup.close();
  }
  node = await startServerNode({ DATABASE_URL: database.url });
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await database?.drop();
  if (asideDatabases.length) {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: new URL('/postgres', database.url).href });
    await admin.connect();
    for (const name of asideDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`backup under a signing load, and restore (${TEST_ENGINE})`, () => {
  it('keeps every signature acknowledged before the backup started, with exact counts and a sound database', async () => {
    const pairs: { user: number; petition: number }[] = [];
    for (let user = 0; user < USERS; user += 1) for (let p = 0; p < PETITIONS; p += 1) pairs.push({ user, petition: petitionIds[(user + p) % PETITIONS]! });
    const acknowledged: { key: string; at: number }[] = [];
    const unexpected: number[] = [];
    let backupDoneAt: number | null = null;
    let ackedAtBackupDone = 0;
    const stopLoad = () => backupDoneAt !== null && acknowledged.length >= ackedAtBackupDone + AFTER_BACKUP;

    const client = async () => {
      for (let next = pairs.shift(); next && !stopLoad(); next = pairs.shift()) {
        const status = await sign(next.user, next.petition);
        if (status === 200) acknowledged.push({ key: `${next.petition}:${FIRST_USER + next.user}`, at: performance.now() });
        else unexpected.push(status);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, client));

    while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    const backupFile = path.join(dir, 'under-load.backup');
    const backupStartedAt = performance.now();
    const before = new Set(acknowledged.filter((ack) => ack.at < backupStartedAt).map((ack) => ack.key));
    const backup = await command('backup', ['--out', backupFile]);
    backupDoneAt = performance.now();
    ackedAtBackupDone = acknowledged.length;
    await load;

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(TEST_ENGINE === 'sqlite' ? /by the running server\.\nChecked: integrity ok;/ : /with pg_dump\.\nChecked: pg_restore reads it/);
    expect(fs.existsSync(`${backupFile}.partial`)).toBe(false);
    expect(unexpected).toEqual([]);
    // The load really ran through the backup: acknowledged while it ran, and after it.
    const during = acknowledged.filter((ack) => ack.at > backupStartedAt && ack.at < backupDoneAt!).length;
    expect(during).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(ackedAtBackupDone);
    const total = acknowledged.length;

    // Refused while the node serves, and nothing changed.
    const refused = await command('restore', [backupFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(TEST_ENGINE === 'sqlite' ? /^Restore stopped: A server is using .*: stop it first \(nothing was changed\)/ : /^Restore stopped: \d+ session\(s\) are connected to the database .* \(petitions-server.*\): stop every server node first/);
    const live = await openDatabase(database.url).catch(() => null);
    if (TEST_ENGINE === 'postgres') {
      expect(await live!.db.selectFrom('signatures').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual({ n: total });
      await live!.close();
    } else {
      // SQLite: the node owns the file, so not even a reader gets in (the refusal's own reason).
      expect(live).toBeNull();
    }

    await node!.stop();
    node = null;
    const restored = await command('restore', [backupFile]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const previous = /kept as (\S+?);? /.exec(restored.stdout)?.[1];
    expect(previous).toBeTruthy();
    if (TEST_ENGINE === 'postgres') asideDatabases.push(previous!);
    else expect(fs.existsSync(previous!)).toBe(true);

    const check = await openDatabase(database.url);
    let storedTotal: number;
    try {
      const rows = await check.db.selectFrom('signatures').select(['petition_id', 'user_id']).execute();
      const stored = new Set(rows.map((row) => `${row.petition_id}:${row.user_id}`));
      storedTotal = rows.length;
      expect(stored.size).toBe(rows.length);
      expect([...before].filter((key) => !stored.has(key))).toEqual([]);
      // A copy of one moment: what was acknowledged after the backup finished is not in it.
      expect(rows.length).toBeLessThan(total);
      for (const id of petitionIds) {
        const petition = await check.db.selectFrom('petitions').select('signature_count').where('id', '=', id).executeTakeFirstOrThrow();
        expect(petition.signature_count).toBe(rows.filter((row) => row.petition_id === id).length);
      }
    } finally {
      await check.close();
    }
    expect(await integrity()).toBe('ok');

    // A node on the restored database serves the same counts.
    node = await startServerNode({ DATABASE_URL: database.url });
    let served = 0;
    for (const id of petitionIds) {
      const response = await fetch(`${node.base}/api/petitions/${id}`);
      served += ((await response.json()) as { signatures: number }).signatures;
    }
    expect(served).toBe(storedTotal);
    console.log(`backup under load (${TEST_ENGINE}): ${before.size} signatures acknowledged before it started, ${during} while it ran (${Math.round(backupDoneAt - backupStartedAt)} ms), ${total} in all; ${storedTotal} in the backup`);
  }, 180_000);
});
