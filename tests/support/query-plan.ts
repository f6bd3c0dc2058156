/** The plan a database would run for a query, as text, on either engine. */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { SqlDialectName } from '../../src-server/db/dialect.ts';
import type { Database } from '../../src-server/db/schema.ts';

/**
 * SQLite: EXPLAIN QUERY PLAN's details. PostgreSQL: EXPLAIN's lines, with sequential scans
 * forbidden: test tables are tiny, so PostgreSQL would rightly scan them, and the question is
 * which index it can use.
 */
export async function queryPlan(db: Kysely<Database>, dialect: SqlDialectName, compiled: CompiledQuery): Promise<string> {
  if (dialect === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]));
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }
  const result = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
  return result.rows.map((row) => row.detail).join('\n');
}
