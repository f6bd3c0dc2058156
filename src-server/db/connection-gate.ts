/**
 * A bulkhead in front of the database pool for expensive reads (searches, exports): at most `slots`
 * of them hold connections at once, so the rest of the pool stays free for ordinary reads and
 * writes however many searches arrive (docs/limits.md#database-connections). A search that cannot
 * start within `maxWaitMs` answers 503 with Retry-After, like a request that waited that long for a
 * pooled connection.
 */
import { HttpError } from '../http/problem.ts';
import { DATABASE_BUSY } from './unavailable.ts';

export const BUSY_RETRY_AFTER_SECONDS = 2;

export interface ConnectionGate {
  run<T>(work: () => Promise<T>): Promise<T>;
  stats(): { running: number; waiting: number; refused: number };
}

export function createConnectionGate(options: { slots: number; maxWaitMs: number }): ConnectionGate {
  let running = 0;
  let refused = 0;
  const waiting: (() => void)[] = [];

  function enter(): Promise<void> {
    if (running < options.slots) {
      running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        running += 1;
        resolve();
      };
      const timer = setTimeout(() => {
        const index = waiting.indexOf(admit);
        if (index !== -1) waiting.splice(index, 1);
        refused += 1;
        reject(new HttpError(503, DATABASE_BUSY, {}, { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) }));
      }, options.maxWaitMs);
      waiting.push(admit);
    });
  }

  function leave(): void {
    running -= 1;
    waiting.shift()?.();
  }

  return {
    async run(work) {
      await enter();
      try {
        return await work();
      } finally {
        leave();
      }
    },
    stats: () => ({ running, waiting: waiting.length, refused }),
  };
}

/** No bulkhead (SQLite: one in-process connection, nothing to keep free). */
export const ungated: ConnectionGate = {
  run: (work) => work(),
  stats: () => ({ running: 0, waiting: 0, refused: 0 }),
};
