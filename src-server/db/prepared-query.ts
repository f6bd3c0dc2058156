/**
 * Kysely queries for the hot paths, compiled once. Building and compiling a query costs more than
 * running a point query on SQLite, so these are compiled on first use with a named placeholder in
 * each parameter slot; later calls only put the values in place. Together with the statement cache
 * of the database layer, the same SQL text also reuses the same prepared statement.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database, Db } from './schema.ts';

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
  let template: Template<P, R> | null = null;

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

  return (db: Db, params: P): Promise<QueryResult<R>> => {
    template ??= compile(db);
    const parameters = template.slots.map((slot) => ('param' in slot ? params[slot.param] : slot.constant));
    return db.executeQuery<R>({ ...template.compiled, parameters });
  };
}
