/**
 * Errors that mean "the database cannot answer right now" rather than "this request is wrong": a
 * PostgreSQL restart or failover, a refused or dropped connection, a full pool, a statement that ran
 * past its timeout, a SQLite file busy past busy_timeout. They answer 503 with a clear detail, and
 * the next request tries again (the pool reconnects on its own).
 */
export const DATABASE_UNAVAILABLE = 'The database is not answering right now; please try again in a moment';

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

const UNAVAILABLE_MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}
