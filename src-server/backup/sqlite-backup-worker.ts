/**
 * Worker thread that writes a SQLite backup with `VACUUM INTO` on a connection of its own: one
 * read transaction, so the copy is the database as of one moment, while the request thread goes on
 * committing (WAL lets a reader and a writer run together). `connectionName` is what the server
 * opened (owned-file.ts), so this connection shares the server's lock on the file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const { connectionName, file } = workerData as { connectionName: string; file: string };
try {
  const db = new BetterSqlite3(connectionName);
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(file);
  } finally {
    db.close();
  }
  parentPort?.postMessage({ ok: true });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: (error as Error).message });
}
