/**
 * Opening the database at start-up, when it may not be there yet (docs/operations.md#starting-before-the-database):
 * a node started together with PostgreSQL, during a failover, or while every connection slot is
 * taken retries with capped exponential backoff for a bounded time instead of exiting at once.
 * Only "cannot answer right now" errors (unavailable.ts) are retried; a wrong password, a missing
 * database or a SQLite file another server owns are mistakes a retry cannot fix, and fail at once.
 */
import { exponentialCeilingMs } from '../../src-shared/rules/retry.ts';
import type { OpenDatabase } from './dialect.ts';
import { DatabaseInUseError } from './owned-file.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

export class DatabaseStartTimeoutError extends Error {
  constructor(timeoutMs: number, lastReason: string, options: { cause: unknown }) {
    super(
      `The database did not answer within ${Math.round(timeoutMs / 1000)} s of starting (DATABASE_START_TIMEOUT_S); giving up. Last error: ${lastReason}`,
      options,
    );
    this.name = 'DatabaseStartTimeoutError';
  }
}

export interface WaitingForDatabase {
  /** The last error, as an operator would want to read it. */
  reason: string;
  attempt: number;
  elapsedMs: number;
  nextDelayMs: number;
}

export interface DatabaseStartOptions {
  timeoutMs: number;
  /** Called after each failed attempt that will be retried. */
  onWaiting?: (waiting: WaitingForDatabase) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function isRetryableAtStart(error: unknown): boolean {
  return !(error instanceof DatabaseInUseError) && isDatabaseUnavailable(error);
}

/** The innermost message: pg wraps little, but the migrator's "Database migration failed" hides the cause. */
export function describeDatabaseError(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { message, code } = current as { message?: unknown; code?: unknown };
    if (typeof message === 'string' && message) messages.push(typeof code === 'string' ? `${message} (${code})` : message);
  }
  return messages.at(-1) ?? String(error);
}

export async function openDatabaseWhenReachable(open: () => Promise<OpenDatabase>, options: DatabaseStartOptions): Promise<OpenDatabase> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await open();
    } catch (error) {
      if (!isRetryableAtStart(error)) throw error;
      const elapsedMs = now() - started;
      const reason = describeDatabaseError(error);
      const left = options.timeoutMs - elapsedMs;
      if (left <= 0) throw new DatabaseStartTimeoutError(options.timeoutMs, reason, { cause: error });
      // Full jitter: nodes restarted together do not come back in step.
      const ceiling = exponentialCeilingMs(attempt, FIRST_DELAY_MS, MAX_DELAY_MS);
      const nextDelayMs = Math.min(left, Math.round(ceiling / 2 + (Math.random() * ceiling) / 2));
      options.onWaiting?.({ reason, attempt, elapsedMs, nextDelayMs });
      await sleep(nextDelayMs);
    }
  }
}
