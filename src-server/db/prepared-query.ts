/**
 * Kysely queries for the hot paths, compiled once. Building and compiling a query costs more than
 * running a point query on SQLite, so these are compiled on first use with a named placeholder in
 * each parameter slot; later calls only put the values in place. Together with the statement cache
 * of the database layer, the same SQL text also reuses the same prepared statement. On SQLite, when
 * no Kysely transaction is open, the statement runs directly (see direct-sqlite.ts).
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database, Db } from './schema.ts';
import { directSqlite, directSqliteNow, type DirectSqlite } from './direct-sqlite.ts';

const MARKER = '\u0000prepared-query-parameter:';

type Slot<P> = { param: keyof P } | { constant: unknown };

interface Template<P, R> {
  compiled: CompiledQuery<R>;
  slots: Slot<P>[];
}

/**
 * `build` receives placeholders, not values: it must pass each one straight into the query builder
 * (where, values, limit...) and never compute with it.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  keys: readonly (keyof P & string)[],
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
) {
  // One template per engine (keyed by its dialect adapter's class): a process normally runs one,
  // but tests and the benchmark run both, and the SQL text differs (placeholders, quoting).
  const templates = new Map<unknown, Template<P, R>>();

  function compile(db: Db): Template<P, R> {
    const placeholders = Object.fromEntries(keys.map((key) => [key, `${MARKER}${key}`])) as unknown as P;
    const compiled = build(db, placeholders).compile();
    const slots = compiled.parameters.map((value): Slot<P> =>
      typeof value === 'string' && value.startsWith(MARKER) ? { param: value.slice(MARKER.length) as keyof P } : { constant: value },
    );
    const used = new Set(slots.flatMap((slot) => ('param' in slot ? [slot.param] : [])));
    const unused = keys.filter((key) => !used.has(key));
    if (unused.length) throw new Error(`prepared query never uses ${unused.join(', ')}: ${compiled.sql}`);
    return { compiled, slots };
  }

  /** The compiled query with this call's values in its parameter slots. */
  function bind(db: Db, params: P): CompiledQuery<R> {
    const engine = db.getExecutor().adapter.constructor;
    let template = templates.get(engine);
    if (!template) templates.set(engine, (template = compile(db)));
    return { ...template.compiled, parameters: template.slots.map((slot) => ('param' in slot ? params[slot.param] : slot.constant)) };
  }

  function runDirect(direct: DirectSqlite, db: Db, params: P): QueryResult<R> {
    const { sql, parameters } = bind(db, params);
    const statement = direct.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  /** Runs now and returns the result, or null when it cannot run synchronously (use the async form). */
  function now(db: Db, params: P): QueryResult<R> | null {
    const direct = directSqliteNow(db);
    return direct ? runDirect(direct, db, params) : null;
  }

  /**
   * Runs on the direct connection without checking for an open transaction: only for work running
   * inside runDirectTransaction, whose own transaction that is.
   */
  function inDirectTransaction(db: Kysely<Database>, params: P): QueryResult<R> {
    const direct = directSqlite(db);
    if (!direct) throw new Error('inDirectTransaction needs a SQLite database');
    return runDirect(direct, db, params);
  }

  function execute(db: Db, params: P): Promise<QueryResult<R>> {
    const direct = directSqliteNow(db);
    if (!direct) return db.executeQuery<R>(bind(db, params));
    try {
      return Promise.resolve(runDirect(direct, db, params));
    } catch (error) {
      // Fail the way the Kysely path fails: a rejected promise, never a synchronous throw.
      return Promise.reject(error as Error);
    }
  }

  return Object.assign(execute, { now, inDirectTransaction });
}
