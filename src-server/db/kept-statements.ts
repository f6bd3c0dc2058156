/**
 * The SQL texts of the hot paths (see prepared-query.ts), which PostgreSQL keeps prepared on every
 * pooled connection (postgres-database.ts): a named statement is parsed and planned once per
 * connection, then only bound and executed. The set is bounded by the code (each text is a fixed
 * template), never by the data. SQLite needs none of this (its statement cache does the same).
 */
const names = new Map<string, string>();

/** Marks `text` as worth keeping prepared. */
export function keepPrepared(text: string): void {
  if (!names.has(text)) names.set(text, `petitions_${names.size + 1}`);
}

/** The statement name of a kept text, or undefined for any other SQL. */
export function keptStatementName(text: string): string | undefined {
  return names.get(text);
}
