/**
 * Synchronous access to the SQLite connection behind a Kysely instance, for the hot paths.
 *
 * Kysely's SQLite driver wraps every statement in promises and a connection mutex, which costs
 * more than a point query itself. better-sqlite3 is synchronous, so a statement run directly is
 * atomic with respect to the event loop; the one thing to respect is a Kysely transaction that is
 * open across awaits on the same connection. While one is open (`inTransaction`), direct work must
 * not run, or it would read that transaction's uncommitted rows or be rolled back with it.
 *
 * Only the root Kysely instance of a SQLite database is registered: a Transaction object never
 * resolves to a direct connection, so code running inside a Kysely transaction stays on Kysely.
 * A future PostgreSQL database registers nothing, and every caller falls back to Kysely.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database, Db } from './schema.ts';

export interface DirectSqlite {
  /** Prepares through the same statement cache Kysely uses, so each SQL text is compiled once. */
  prepare(sql: string): BetterSqlite3.Statement;
  /** The connection, for transactions (`sqlite.transaction(fn)`). */
  sqlite: BetterSqlite3.Database;
}

const registry = new WeakMap<Db, DirectSqlite>();

export function registerDirectSqlite(db: Kysely<Database>, direct: DirectSqlite): void {
  registry.set(db, direct);
}

/** The direct connection when synchronous work may run right now; otherwise null (use Kysely). */
export function directSqliteNow(db: Db): DirectSqlite | null {
  const direct = registry.get(db);
  return direct && !direct.sqlite.inTransaction ? direct : null;
}

/** The direct connection of a SQLite database (busy or not); null for other databases and for transactions. */
export function directSqlite(db: Db): DirectSqlite | null {
  return registry.get(db) ?? null;
}

/**
 * Runs `work` synchronously inside one SQLite transaction, as soon as no Kysely transaction is
 * open: at once in the common case, otherwise after taking Kysely's connection (which waits for
 * the open transaction to finish).
 */
export async function runDirectTransaction<T>(db: Kysely<Database>, direct: DirectSqlite, work: () => T): Promise<T> {
  const run = direct.sqlite.transaction(work);
  if (!direct.sqlite.inTransaction) return run.immediate();
  return db.connection().execute(async () => run.immediate());
}
