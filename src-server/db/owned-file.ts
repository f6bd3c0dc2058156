/**
 * Opens the database file for this process alone, through SQLite's "unix-excl" VFS: the first read
 * takes one exclusive lock for the whole process. Connections of this process (the WAL checkpoint
 * worker) share the file as usual; other processes cannot open it while the server runs.
 *
 * Why: with the default VFS every transaction, a one-row read included, takes and releases file
 * locks (several fcntl system calls) and reads the WAL index from a shared-memory file. Owning the
 * file, SQLite skips those locks and keeps the WAL index in heap memory: in A/B runs (two servers,
 * alternating slices) server CPU per request fell 3–12% for count, detail and signing. It also
 * enforces what the deferred signature counts assume (petitions/signature-counts.ts): one process
 * writes the database.
 *
 * A VFS is chosen by a URI filename, and better-sqlite3 reads URI filenames only when
 * SQLITE_USE_URI=1 is in the environment as its native addon loads (its addon.cpp). Where that did
 * not happen, or on Windows (no unix-excl), the file opens the ordinary, shared way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';

// Before this process's first connection loads the addon; an explicit setting is respected.
process.env.SQLITE_USE_URI ??= '1';

export interface OwnedSqlite {
  sqlite: BetterSqlite3.Database;
  /** What further connections of this process (the checkpoint worker) must open, to share the lock. */
  connectionName: string;
  /** False where the file could only be opened the ordinary, shared way. */
  exclusive: boolean;
}

export class DatabaseInUseError extends Error {
  constructor(file: string, options: { cause: unknown }) {
    super(`The database ${file} is open in another process. The server needs it to itself: stop the other process first.`, options);
    this.name = 'DatabaseInUseError';
  }
}

export function openOwnedSqlite(file: string): OwnedSqlite {
  const absolute = path.resolve(file);
  const name = `${pathToFileURL(absolute).href}?vfs=unix-excl`;
  const sqlite = process.platform === 'win32' ? null : tryOpen(name);
  if (sqlite && opensFile(sqlite, absolute)) {
    try {
      // The first read takes the process's lock, or fails if another process holds the file.
      sqlite.pragma('schema_version');
    } catch (error) {
      sqlite.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(file, { cause: error });
      throw error;
    }
    return { sqlite, connectionName: name, exclusive: true };
  }
  sqlite?.close();
  return { sqlite: new BetterSqlite3(absolute), connectionName: absolute, exclusive: false };
}

/** Without URI filenames the name is a path that does not exist, and opening it fails. */
function tryOpen(name: string): BetterSqlite3.Database | null {
  try {
    return new BetterSqlite3(name);
  } catch {
    return null;
  }
}

function opensFile(sqlite: BetterSqlite3.Database, absolute: string): boolean {
  const main = (sqlite.pragma('database_list') as { name: string; file: string }[]).find((entry) => entry.name === 'main');
  return main !== undefined && fs.realpathSync(main.file) === fs.realpathSync(absolute);
}
