/**
 * Restoring a SQLite backup into DATABASE_URL's file (docs/operations.md#restoring):
 * 1. the backup is copied next to the database and the copy checked (the database is not touched yet);
 * 2. the database is opened as its owner (owned-file.ts): while a server runs this fails, and the
 *    restore is refused; once held, no server can start on it until the swap is done;
 * 3. its write-ahead log is folded in, it is moved aside (`<file>.before-restore-<time>`), and the
 *    checked copy takes its name. If anything fails after the move, the previous file goes back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseInUseError, openOwnedSqlite } from '../db/owned-file.ts';
import { BackupError, backupKindOf, fileStamp } from './backup-files.ts';
import { checkSqliteCopy, type BackupSummary } from './sqlite-backup.ts';

export interface RestoreResult {
  summary: BackupSummary;
  /** Where the previous database now is (null: there was none). */
  previous: string | null;
}

export function restoreSqlite(databaseFile: string, backupFile: string, now = new Date()): RestoreResult {
  const target = path.resolve(databaseFile);
  const kind = backupKindOf(backupFile);
  if (kind === 'postgres') throw new BackupError(`${backupFile} is a PostgreSQL archive; DATABASE_URL names a SQLite database`);
  if (kind !== 'sqlite') throw new BackupError(`${backupFile} is not a backup this server wrote (neither a SQLite database nor a pg_dump archive)`);

  const stamp = fileStamp(now);
  const incoming = `${target}.restoring-${stamp}`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(backupFile, incoming);
  let summary: BackupSummary;
  try {
    summary = checkSqliteCopy(incoming);
  } catch (error) {
    fs.rmSync(incoming, { force: true });
    throw error;
  }

  if (!fs.existsSync(target)) {
    fs.renameSync(incoming, target);
    return { summary, previous: null };
  }

  let owned;
  try {
    owned = openOwnedSqlite(target);
  } catch (error) {
    fs.rmSync(incoming, { force: true });
    if (error instanceof DatabaseInUseError) {
      throw new BackupError(`A server is using ${target}: stop it first (nothing was changed)`, { cause: error });
    }
    throw error;
  }
  const previous = `${target}.before-restore-${stamp}`;
  try {
    if (!owned.exclusive) {
      // Where the file cannot be owned (Windows), a writer's lock is the best sign of a running server.
      owned.sqlite.prepare('BEGIN IMMEDIATE').run();
      owned.sqlite.prepare('ROLLBACK').run();
    }
    // Everything in the previous file itself, so it can be moved as one file.
    owned.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    owned.sqlite.pragma('journal_mode = DELETE');
    fs.renameSync(target, previous);
    try {
      fs.renameSync(incoming, target);
    } catch (error) {
      fs.renameSync(previous, target);
      throw error;
    }
  } catch (error) {
    fs.rmSync(incoming, { force: true });
    throw error;
  } finally {
    owned.sqlite.close();
  }
  for (const leftover of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) fs.rmSync(leftover, { force: true });
  return { summary, previous };
}
