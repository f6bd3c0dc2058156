/**
 * The home page's figures for the current term (docs/statuses.md#list-filters), counted with the list's own
 * SQL predicates.
 */
import type { HomeStats } from '../../src-shared/domain/schemas.ts';
import { londonMidnight } from '../../src-shared/rules/dates.ts';
import type { SqlDialectName } from '../db/dialect.ts';
import { hasGovernmentResponseSql, isDebatedSql } from './classification-sql.ts';
import type { Db } from '../db/schema.ts';
import { findCurrentTerm } from '../terms/terms-repository.ts';
import { publiclyVisible } from './public-visibility.ts';

export async function homeStats(db: Db, dialect: SqlDialectName, now: Date): Promise<HomeStats> {
  const term = await findCurrentTerm(db, now);
  if (!term) return { termId: null, termName: null, created: 0, responded: 0, debated: 0 };
  const row = await db
    .selectFrom('petitions')
    .select((eb) => [
      eb.fn.countAll<number>().as('created'),
      eb.fn.sum<number | null>(eb.case().when(hasGovernmentResponseSql(eb)).then(1).else(0).end()).as('responded'),
      eb.fn.sum<number | null>(eb.case().when(isDebatedSql(eb, dialect)).then(1).else(0).end()).as('debated'),
    ])
    // "Created since the current term's start": the term starts at UK midnight of its start date.
    .where('created_at', '>=', londonMidnight(term.startDate).toISOString())
    // Hidden and rejected petitions count for nothing the public sees (docs/moderation.md#what-the-public-sees).
    .where(publiclyVisible)
    .executeTakeFirstOrThrow();
  return {
    termId: term.id,
    termName: term.name,
    created: Number(row.created),
    responded: Number(row.responded ?? 0),
    debated: Number(row.debated ?? 0),
  };
}
