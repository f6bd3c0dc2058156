/**
 * Worker thread that copies the SQLite write-ahead log back into the database file every
 * `intervalMs`. Checkpoints write and fsync; here they block this thread instead of the one
 * answering requests. With nothing new in the log a checkpoint returns at once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const { connectionName, intervalMs } = workerData as { connectionName: string; intervalMs: number };
const db = new BetterSqlite3(connectionName);
db.pragma('busy_timeout = 5000');

const timer = setInterval(() => {
  try {
    // PASSIVE never waits for the request thread's readers or writers.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database is checkpointed on the next tick; the request thread's safety net covers the rest.
  }
}, intervalMs);

parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
