/**
 * PostgreSQL through Kysely's PostgresDialect over a `pg` pool. Many server processes may share
 * one database: migrations take Kysely's migration lock, so nodes starting together migrate once,
 * and only the node that applied the first migration reports the database as created (and seeds it).
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { OpenDatabase, PoolOptions } from './dialect.ts';
import { createChangeNotices, type ChangeNotices } from './change-notices.ts';
import { keptStatementName } from './kept-statements.ts';
import { migrateToLatest } from './migrations/index.ts';
import { readinessProbeOver, type ReadinessProbe } from './readiness-probe.ts';
import type { Database } from './schema.ts';

export const DEFAULT_POOL_SIZE = 10;
export const SERVER_APPLICATION_NAME = 'petitions-server';
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** A request waits at most this long for a pooled connection, then answers 503 (docs/limits.md#database-connections). */
export const DEFAULT_POOL_WAIT_MS = 2_000;
/** Startup options of the request pool's sessions (createPostgresPool). */
const NO_PARALLEL_QUERY = '-c max_parallel_workers_per_gather=0';
/** /readyz's own connection: connecting, and its statements, end within this. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * Counts (bigint) and sums (numeric) arrive as strings by default; every count here fits a JS
 * number, and SQLite gives numbers, so both engines answer alike.
 */
const NUMBER_TYPES = new Set([pg.types.builtins.INT8, pg.types.builtins.NUMERIC]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    NUMBER_TYPES.has(oid) ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * Statements after which this node has written (a commit, or a write outside a transaction), so its
 * own change notices are awaited before its cache is trusted again (change-notices.ts).
 */
const WRITES = /^\s*(commit|end|insert|update|delete|merge|truncate)\b/i;
const WRITING_CTE = /^\s*with\b[\s\S]*\b(insert|update|delete)\b/i;
const ROLLS_BACK = /^\s*(rollback|abort)\b/i;
const COMMITS = /^\s*(commit|end)\b/i;
/**
 * A write that names the sessions or users table (Kysely quotes them: "sessions", "users"): the
 * session cache waits for its notices (change-notices.ts: fenceSessions). Naming them is enough to
 * count; a false alarm only sends this node's session reads to the database until the next fence
 * comes back. Writes by other means (another process, a function) still reach every node within
 * FRESHNESS_MS through the notices themselves.
 */
const NAMES_SESSION_TABLES = /\b(sessions|users)\b/i;

/** What the pool tells after a statement that wrote: `sessions` when sessions or users may have changed. */
export type WriteListener = (wrote: { sessions: boolean }) => void;

export function createPostgresPool(url: string, options: PoolOptions = {}, onWrite?: WriteListener): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    // How `npm run restore` and pg_stat_activity tell a server's sessions from others (docs/operations.md#restoring).
    application_name: SERVER_APPLICATION_NAME,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    // No parallel workers: a request's query is small, and starting them costs milliseconds (the large
    // tag's first page: 10.8 ms with them, 0.6 ms without; docs/operations.md#no-parallel-query).
    // A connection string that sets its own `options` replaces this.
    options: NO_PARALLEL_QUERY,
    // Bounds the wait for a free connection (and for opening one): without it a full pool queues
    // requests without limit, and every read waits behind the slowest ones. Past it the request
    // answers 503 with Retry-After (unavailable.ts), and its client tries again.
    connectionTimeoutMillis: options.poolWaitMs ?? DEFAULT_POOL_WAIT_MS,
    types,
  });
  // An idle connection the server dropped (a restart): the pool discards it and opens another
  // when next needed; requests running at that moment fail with their own error.
  pool.on('error', () => {});
  // The same for a connection that is checked out between two queries (inside a transaction):
  // without a listener its 'error' event would end the process; its next query fails instead.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    keepHotStatementsPrepared(client, onWrite);
  });
  return pool;
}

/**
 * Kysely sends every query as text; the hot ones (kept-statements.ts) go out as named statements
 * instead, so this connection parses and plans each of them once rather than on every request.
 */
function keepHotStatementsPrepared(client: pg.PoolClient, onWrite: WriteListener | undefined): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  /** Whether the open transaction on this connection wrote to sessions or users (told again at its commit). */
  let sessionWrite = false;
  client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' && Array.isArray(values) ? keptStatementName(text) : undefined;
    const run = (...args: unknown[]) => (name ? query({ name, text, values }, ...args) : query(text, values, ...args));
    if (!onWrite || typeof text !== 'string') return run(...rest);
    if (ROLLS_BACK.test(text)) {
      sessionWrite = false;
      return run(...rest);
    }
    if (!(WRITES.test(text) || WRITING_CTE.test(text))) return run(...rest);
    const commits = COMMITS.test(text);
    if (!commits && NAMES_SESSION_TABLES.test(text)) sessionWrite = true;
    const wrote = { sessions: sessionWrite };
    if (commits) sessionWrite = false;
    // Before the caller resumes (and answers its client), this node stops trusting its cache.
    const callback = rest.find((arg) => typeof arg === 'function') as ((error: unknown, result: unknown) => void) | undefined;
    if (callback) {
      return run(...rest.map((arg) => (arg === callback ? (error: unknown, result: unknown) => (error ? callback(error, result) : (onWrite(wrote), callback(error, result))) : arg)));
    }
    return (run(...rest) as Promise<unknown>).then((value) => {
      onWrite(wrote);
      return value;
    });
  }) as typeof client.query;
}

/**
 * /readyz's connection: one of its own, outside the request pool, with short timeouts, so a probe
 * never waits behind ordinary requests and a database that does not answer is reported within
 * READINESS_TIMEOUT_MS. Kept open between probes (a load balancer asks every few seconds).
 */
export function createPostgresReadinessProbe(url: string): ReadinessProbe {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: SERVER_APPLICATION_NAME,
    max: 1,
    connectionTimeoutMillis: READINESS_TIMEOUT_MS,
    statement_timeout: READINESS_TIMEOUT_MS,
    query_timeout: READINESS_TIMEOUT_MS,
    idleTimeoutMillis: 0,
    types,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return readinessProbeOver(db, 'postgres', () => db.destroy());
}

export async function openPostgresDatabase(url: string, options: PoolOptions = {}): Promise<OpenDatabase> {
  let changeNotices: ChangeNotices | undefined;
  const pool = createPostgresPool(url, options, (wrote) => {
    changeNotices?.fence();
    if (wrote.sessions) changeNotices?.fenceSessions();
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    const applied = await migrateToLatest(db, 'postgres');
    const readiness = createPostgresReadinessProbe(url);
    changeNotices = createChangeNotices(url, { applicationName: SERVER_APPLICATION_NAME });
    const notices = changeNotices;
    return {
      db,
      dialect: 'postgres',
      created: applied.includes('0001_initial'),
      exclusive: true,
      poolStats: () => ({
        total: pool.totalCount,
        inUse: pool.totalCount - pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max ?? DEFAULT_POOL_SIZE,
      }),
      readiness,
      changeNotices: notices,
      close: async () => {
        await notices.close();
        await readiness.close();
        await db.destroy();
      },
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
