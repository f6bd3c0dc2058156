/** Signatures per hour for a petition's chart, counted from the signatures table. */
import { sql } from 'kysely';
import type { HourlySignatures } from '../../src-shared/domain/schemas.ts';
import type { Db } from '../db/schema.ts';

/**
 * signed_at is ISO-8601 UTC text, so its first 13 characters (YYYY-MM-DDTHH) name the hour on
 * both SQLite and PostgreSQL, and (petition_id, signed_at) order covers the whole query (SQLite's table key, PostgreSQL's index).
 */
export async function hourlySignatures(db: Db, petitionId: number): Promise<HourlySignatures['points']> {
  const hour = sql<string>`substr(signed_at, 1, 13)`;
  const rows = await db
    .selectFrom('signatures')
    .select([hour.as('hour'), (eb) => eb.fn.countAll<number>().as('count')])
    .where('petition_id', '=', petitionId)
    .groupBy(hour)
    .orderBy(hour)
    .execute();
  return rows.map((row) => ({ hour: `${row.hour}:00:00.000Z`, count: Number(row.count) }));
}
