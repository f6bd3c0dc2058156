/**
 * Errors that mean "the database cannot answer right now" rather than "this request is wrong": a
 * PostgreSQL restart or failover, a refused or dropped connection, a full pool, a statement that ran
 * past its timeout, a SQLite file busy past busy_timeout. They answer 503 with a clear detail, and
 * the next request tries again (the pool reconnects on its own).
 */
export const DATABASE_UNAVAILABLE = 'The database is not answering right now; please try again in a moment';
/**
 * Every pooled connection stayed busy for DATABASE_POOL_WAIT_MS (postgres-database.ts): the node is
 * overloaded rather than the database down. Also 503 with Retry-After, with its own detail.
 */
export const DATABASE_BUSY = 'The server is busy right now; please try again in a moment';
/** pg-pool's error for a request that waited connectionTimeoutMillis for a free connection. */
const POOL_WAIT_EXCEEDED = /timeout exceeded when trying to connect/i;

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '57014', // query_canceled (statement_timeout)
  '53300', // too_many_connections
  '08000', // connection_exception and its subclasses
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
]);

const UNAVAILABLE_MESSAGES = [/Connection terminated/i, POOL_WAIT_EXCEEDED, /Client has encountered a connection error/i];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/** The detail a 503 for this error gives: busy (a full pool) or unavailable (the database itself). */
export function unavailableDetail(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { message } = current as { message?: unknown };
    if (typeof message === 'string' && POOL_WAIT_EXCEEDED.test(message)) return DATABASE_BUSY;
  }
  return DATABASE_UNAVAILABLE;
}
