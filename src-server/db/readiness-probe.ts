/**
 * What /readyz asks the database (health-routes.ts): does it answer, and is every migration this
 * server knows applied. On PostgreSQL the probe has a connection of its own with a short timeout
 * (postgres-database.ts), so a node whose pool is busy with slow requests still answers its load
 * balancer at once, and one slow query mix cannot mark every node unready together
 * (docs/limits.md#database-connections). SQLite has one in-process connection: the probe uses it.
 */
import { sql, type Kysely } from 'kysely';
import type { SqlDialectName } from './dialect.ts';
import { pendingMigrations } from './migrations/index.ts';

export interface ReadinessProbe {
  /** The migrations not applied yet (none: ready); throws when the database does not answer. */
  pendingMigrations(): Promise<string[]>;
  close(): Promise<void>;
}

/** The probe over a given connection (pool): the database's own, or one kept for probes. */
export function readinessProbeOver<DB>(db: Kysely<DB>, dialect: SqlDialectName, close: () => Promise<void> = async () => {}): ReadinessProbe {
  return {
    async pendingMigrations() {
      await sql`select 1`.execute(db);
      return pendingMigrations(db, dialect);
    },
    close,
  };
}

/** SQLite, and tests that need nothing else: the probe shares the database's connection. */
export function sharedConnectionProbe<DB>(db: Kysely<DB>, dialect: SqlDialectName = 'sqlite'): ReadinessProbe {
  return readinessProbeOver(db, dialect);
}
