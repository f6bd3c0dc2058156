/**
 * The server holds its SQLite file to itself (src-server/db/owned-file.ts): connections of its own
 * process share it, another process cannot open it while it is open, and where URI filenames are
 * off the file still opens, the ordinary way.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/database.ts';
import { insertCurrentTerm } from './public-test-data.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Runs an ES module script in a new Node process at the project root; resolves with what it printed. */
async function inOtherProcess(script: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, ...env } });
  return stdout.trim();
}

/** Opens the file from another process with plain better-sqlite3 and reads it: the count, or the error code. */
const plainRead = (file: string) =>
  inOtherProcess(`
    import BetterSqlite3 from 'better-sqlite3';
    try {
      const db = new BetterSqlite3(${JSON.stringify(file)}, { timeout: 200 });
      console.log(db.prepare('SELECT count(*) AS n FROM terms').get().n);
    } catch (error) {
      console.log(error.code);
    }`);

describe('database ownership', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-ownership-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('shares the file with connections of this process and keeps the WAL index in memory', async () => {
    const file = path.join(dir, 'shared-in-process.db');
    const first = await openDatabase(`sqlite:${file}`);
    const second = await openDatabase(`sqlite:${file}`);
    try {
      expect(first.exclusive).toBe(true);
      await insertCurrentTerm(first.db);
      const seen = await sql<{ n: number }>`SELECT count(*) AS n FROM terms`.execute(second.db);
      expect(seen.rows[0]!.n).toBe(1);
      await sql`DELETE FROM terms`.execute(second.db);
      const after = await sql<{ n: number }>`SELECT count(*) AS n FROM terms`.execute(first.db);
      expect(after.rows[0]!.n).toBe(0);
      // The default VFS would have created a shared-memory file beside the log.
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect(fs.existsSync(`${file}-shm`)).toBe(false);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('keeps other processes out while it is open, and lets them in once it is closed', async () => {
    const file = path.join(dir, 'owned.db');
    const database = await openDatabase(`sqlite:${file}`);
    await insertCurrentTerm(database.db);
    try {
      expect(await plainRead(file)).toBe('SQLITE_BUSY');
      const secondServer = await inOtherProcess(`
        import { openDatabase } from './src-server/db/database.ts';
        await openDatabase(${JSON.stringify(`sqlite:${file}`)}).then(() => console.log('opened'), (error) => console.log(error.name + ': ' + error.message));`);
      expect(secondServer).toBe(`DatabaseInUseError: The database ${file} is open in another process. The server needs it to itself: stop the other process first.`);
    } finally {
      await database.close();
    }
    expect(await plainRead(file)).toBe('1');
  });

  it('opens the ordinary, shared way where URI filenames are off', async () => {
    const file = path.join(dir, 'without-uri.db');
    const printed = await inOtherProcess(
      `
      import { sql } from 'kysely';
      import { openDatabase } from './src-server/db/database.ts';
      const database = await openDatabase(${JSON.stringify(`sqlite:${file}`)});
      await sql\`INSERT INTO site_settings (key, value, updated_at) VALUES ('probe', 'yes', '2026-01-01T00:00:00.000Z')\`.execute(database.db);
      console.log(JSON.stringify({ exclusive: database.exclusive, shm: (await import('node:fs')).existsSync(${JSON.stringify(`${file}-shm`)}) }));
      await database.close();`,
      { SQLITE_USE_URI: '0' },
    );
    expect(JSON.parse(printed)).toEqual({ exclusive: false, shm: true });
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('file:'))).toEqual([]);
    const reopened = await openDatabase(`sqlite:${file}`);
    try {
      const row = await reopened.db.selectFrom('site_settings').select('value').where('key', '=', 'probe').executeTakeFirst();
      expect(row?.value).toBe('yes');
    } finally {
      await reopened.close();
    }
  });
});
