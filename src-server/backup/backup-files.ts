/**
 * Backup files on disk (docs/operations.md#backups): what kind a file is (read from its first bytes,
 * never from its name), the names scheduled backups get, the temporary name a backup is written
 * under until it is complete and checked, and pruning the oldest.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SqlDialectName } from '../db/dialect.ts';

/** SQLite's file header and pg_dump's custom format ("PGDMP"). */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const PG_CUSTOM_MAGIC = Buffer.from('PGDMP', 'latin1');

/** A backup is written under this suffix and renamed to its real name only once complete and checked. */
export const PARTIAL_SUFFIX = '.partial';

export const BACKUP_EXTENSIONS: Record<SqlDialectName, string> = { sqlite: '.sqlite', postgres: '.pgdump' };

/** Scheduled backups: petitions-20250101T020000Z.sqlite (UTC), so names sort by time. */
const SCHEDULED_NAME = /^petitions-\d{8}T\d{6}Z\.(sqlite|pgdump)$/;
const SCHEDULED_PARTIAL = /^petitions-\d{8}T\d{6}Z\.(sqlite|pgdump)\.partial$/;

export class BackupError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'BackupError';
  }
}

export function backupKindOf(file: string): SqlDialectName | null {
  let handle: number;
  try {
    handle = fs.openSync(file, 'r');
  } catch (error) {
    throw new BackupError(`Cannot read the backup ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const read = fs.readSync(handle, head, 0, head.length, 0);
    if (read >= SQLITE_MAGIC.length && head.equals(SQLITE_MAGIC)) return 'sqlite';
    if (read >= PG_CUSTOM_MAGIC.length && head.subarray(0, PG_CUSTOM_MAGIC.length).equals(PG_CUSTOM_MAGIC)) return 'postgres';
    return null;
  } finally {
    fs.closeSync(handle);
  }
}

export function scheduledBackupName(dialect: SqlDialectName, at: Date): string {
  const stamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  return `petitions-${stamp}${BACKUP_EXTENSIONS[dialect]}`;
}

/** Time stamps for names of files set aside (restore), safe on every file system. */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/**
 * Keeps the newest `keep` scheduled backups in `dir` and removes the rest, with any temporary file a
 * stopped backup left behind (only the node holding the backup lock calls this, so none is in use).
 * Files not named like a scheduled backup are never touched. Returns the removed names.
 */
export function pruneScheduledBackups(dir: string, keep: number): string[] {
  const names = fs.readdirSync(dir);
  const complete = names.filter((name) => SCHEDULED_NAME.test(name)).sort().reverse();
  const doomed = [...complete.slice(keep), ...names.filter((name) => SCHEDULED_PARTIAL.test(name))];
  for (const name of doomed) fs.rmSync(path.join(dir, name), { force: true });
  return doomed;
}

export function listScheduledBackups(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => SCHEDULED_NAME.test(name)).sort() : [];
}
