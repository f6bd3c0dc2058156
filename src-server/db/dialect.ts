/** The database engines the server runs on, and what opening one gives; DATABASE_URL picks one (database.ts). */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { ChangeNotices } from './change-notices.ts';
import type { ReadinessProbe } from './readiness-probe.ts';
import type { Database, Db } from './schema.ts';

export type SqlDialectName = 'sqlite' | 'postgres';

/** The engine behind a database or transaction, for code that is handed one without its OpenDatabase. */
export function dialectOf(db: Db): SqlDialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: SqlDialectName;
  /** True when this call created the database (used to seed demo data once). */
  created: boolean;
  /** Whether this process holds the file to itself (SQLite, see owned-file.ts); PostgreSQL and in-memory databases are always true. */
  exclusive: boolean;
  /** What /readyz asks (readiness-probe.ts): on PostgreSQL over a connection of its own. */
  readiness: ReadinessProbe;
  /** SQLite files: the file, and the name further connections of this process open to share its lock (owned-file.ts). */
  sqliteFile?: { path: string; connectionName: string };
  /** PostgreSQL: the pool's connections right now (metrics). */
  poolStats?: () => PoolStats;
  /** PostgreSQL: what changed in petitions, heard from the database (change-notices.ts); closed with the database. */
  changeNotices?: ChangeNotices;
  close(): Promise<void>;
}

/** How many connections a PostgreSQL pool opens, and how long one statement may run. */
export interface PoolOptions {
  poolSize?: number | undefined;
  statementTimeoutMs?: number | undefined;
  /** Longest a request waits for a pooled connection; past it, 503 (unavailable.ts: DATABASE_BUSY). */
  poolWaitMs?: number | undefined;
}

export interface PoolStats {
  /** Connections open (idle or checked out). */
  total: number;
  /** Checked out by a query or transaction. */
  inUse: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}
