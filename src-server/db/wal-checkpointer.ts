/**
 * Keeps the write-ahead log short without stalling requests. SQLite's automatic checkpoint runs in
 * the connection that commits, i.e. on the request thread, and its fsync stalls every request for
 * milliseconds; under a stream of signatures that alone halved throughput. The database raises
 * wal_autocheckpoint to a safety-net size, and once the log first passes a few megabytes a worker
 * thread takes over checkpointing several times a second. Small databases (tests, a quiet site)
 * never start the worker.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

const WATCH_INTERVAL_MS = 250;
/**
 * Short, so each checkpoint has little to copy and often catches up with the log, which lets the next
 * commit start the log over; with nothing new in the log it returns at once. 20 ms, not 10: a page
 * written twice in that time is copied once, a fifth less of the worker's CPU with the same tail; from
 * 50 ms on the worker stops catching up (docs/operations.md#checkpoints).
 */
export const CHECKPOINT_INTERVAL_MS = 20;
/** SQLite's own default is 1000 pages (about 4 MB). */
const START_AT_BYTES = 4 * 1024 * 1024;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/** `connectionName` is what the request thread opened (see owned-file.ts), so the worker shares its lock. */
export function startWalCheckpointer(file: string, connectionName: string): WalCheckpointer {
  let worker: Worker | null = null;

  const watcher = setInterval(() => {
    let size: number;
    try {
      size = fs.statSync(`${file}-wal`).size;
    } catch {
      return;
    }
    if (size < START_AT_BYTES) return;
    clearInterval(watcher);
    worker = new Worker(new URL('./wal-checkpoint-worker.ts', import.meta.url), {
      workerData: { connectionName, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    // If the worker fails, SQLite's safety-net autocheckpoint still bounds the log.
    worker.on('error', () => {
      worker = null;
    });
    worker.unref();
  }, WATCH_INTERVAL_MS);
  watcher.unref();

  return {
    async stop() {
      clearInterval(watcher);
      if (worker) await worker.terminate();
      worker = null;
    },
  };
}
