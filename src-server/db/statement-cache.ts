/**
 * Kysely's SQLite driver calls prepare() for every execution, and compiling SQL costs more than
 * running a typical point query. This wrapper keeps recently used statements, so a query text seen
 * before is compiled once. Safe because Kysely runs one query at a time on the single connection.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Enough for every distinct query the app issues; IN-lists of varying length evict each other. */
const DEFAULT_CAPACITY = 500;

export interface CachedStatements extends SqliteDatabase {
  prepare(sql: string): BetterSqlite3.Statement;
}

export function withStatementCache(database: BetterSqlite3.Database, capacity = DEFAULT_CAPACITY): CachedStatements {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached) {
        // Re-insert so the Map's order stays least-recently-used first.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
