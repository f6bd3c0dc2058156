/**
 * PostgreSQL through Kysely's PostgresDialect over a `pg` pool. Many server processes may share
 * one database: migrations take Kysely's migration lock, so nodes starting together migrate once,
 * and only the node that applied the first migration reports the database as created (and seeds it).
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { OpenDatabase, PoolOptions } from './dialect.ts';
import { migrateToLatest } from './migrations/index.ts';
import type { Database } from './schema.ts';

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

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

export function createPostgresPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    types,
  });
  // An idle connection the server dropped (a restart): the pool discards it and opens another
  // when next needed; requests running at that moment fail with their own error.
  pool.on('error', () => {});
  // The same for a connection that is checked out between two queries (inside a transaction):
  // without a listener its 'error' event would end the process; its next query fails instead.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export async function openPostgresDatabase(url: string, options: PoolOptions = {}): Promise<OpenDatabase> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPostgresPool(url, options) }) });
  try {
    const applied = await migrateToLatest(db, 'postgres');
    return {
      db,
      dialect: 'postgres',
      created: applied.includes('0001_initial'),
      exclusive: true,
      close: () => db.destroy(),
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
