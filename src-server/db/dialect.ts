/** The database engines the server runs on, and what opening one gives; DATABASE_URL picks one (database.ts). */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export type SqlDialectName = 'sqlite' | 'postgres';

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: SqlDialectName;
  /** True when this call created the database (used to seed demo data once). */
  created: boolean;
  /** Whether this process holds the file to itself (SQLite, see owned-file.ts); PostgreSQL and in-memory databases are always true. */
  exclusive: boolean;
  close(): Promise<void>;
}

/** How many connections a PostgreSQL pool opens, and how long one statement may run. */
export interface PoolOptions {
  poolSize?: number | undefined;
  statementTimeoutMs?: number | undefined;
}
