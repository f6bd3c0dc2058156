/**
 * SQLite backups (docs/operations.md#backups): `VACUUM INTO` writes a compact copy of the database
 * as of one moment. In the server it runs on a worker thread's own connection, so requests go on
 * meanwhile; without a server, on a connection of the command's own. A copy is checked before it
 * counts: `PRAGMA integrity_check` must say ok and the file must be this application's database.
 */
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS } from '../db/migrations/index.ts';
import { BackupError } from './backup-files.ts';

export interface BackupSummary {
  /** What the check read from the copy, for the operator. */
  description: string;
}

/** In the server: a consistent copy written by a worker thread sharing the server's lock (see sqlite-backup-worker.ts). */
export function vacuumIntoOnWorker(connectionName: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sqlite-backup-worker.ts', import.meta.url), { workerData: { connectionName, file } });
    let settled = false;
    worker.once('message', (message: { ok: boolean; message?: string }) => {
      settled = true;
      if (message.ok) resolve();
      else reject(new BackupError(`SQLite could not write the backup: ${message.message ?? 'unknown error'}`));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(new BackupError(`The backup worker failed: ${error.message}`, { cause: error }));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new BackupError(`The backup worker stopped (${code}) before it finished`));
    });
  });
}

/** On a connection the caller owns (no server runs). */
export function vacuumInto(sqlite: BetterSqlite3.Database, file: string): void {
  sqlite.prepare('VACUUM INTO ?').run(file);
}

/**
 * Checks a copy (a file nobody else has open: a fresh backup, or a backup copied next to the
 * database for a restore) and leaves it as one self-contained file (rollback journal, not WAL).
 * Throws a BackupError saying what is wrong.
 */
export function checkSqliteCopy(file: string): BackupSummary {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a SQLite database: ${(error as Error).message}`, { cause: error });
  }
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    if (integrity.join() !== 'ok') throw new BackupError(`${file} failed SQLite's integrity check: ${integrity.slice(0, 5).join('; ')}`);
    db.pragma('journal_mode = DELETE');
    const hasMigrations = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
    if (!hasMigrations) throw new BackupError(`${file} is a SQLite database but not a petitions database (no migration history)`);
    const applied = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((row) => row.name);
    const unknown = applied.filter((name) => !(name in MIGRATIONS));
    if (unknown.length) {
      throw new BackupError(`${file} comes from a newer version of the server (migrations ${unknown.join(', ')} are unknown here): restore it with that version`);
    }
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const petitions = count('petitions');
    const signatures = count('signatures');
    return {
      description: `integrity ok; ${petitions} petitions, ${signatures} signatures; schema at ${applied.at(-1) ?? 'no migration'}`,
    };
  } finally {
    db.close();
  }
}
