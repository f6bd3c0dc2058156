/**
 * The derived classifications of src-shared/rules/classification.ts written as SQL conditions.
 * This is the only place they are translated; a test checks every filter against the shared
 * predicates over a grid of petitions, so the two cannot drift apart.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { DEBATE_THRESHOLD, RESPONSE_THRESHOLD, type StatusFilter } from '../../src-shared/domain/constants.ts';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { signatureBand } from './signature-band.ts';
import { jsonTextField } from './sql-dialect.ts';

type PetitionsEb = ExpressionBuilder<Database, 'petitions'>;

/** toPetition() reads '' and JSON `null` as "no debate info", so SQL must too. */
const NO_JSON = ['', 'null'];

function hasDebateInfo(eb: PetitionsEb): Expression<SqlBool> {
  return eb.and([eb('petitions.debate_info', 'is not', null), eb('petitions.debate_info', 'not in', NO_JSON)]);
}

/**
 * `count >= threshold`, and with `byBand` also the band the threshold falls in. The band says nothing
 * more (it grows with the count), but it lets the database find those petitions through the band
 * indexes instead of reading every petition, which counts want. A page walking the list's own order is
 * better without it: SQLite would then read the whole set and sort it even where the walk stops after
 * one page (docs/operations.md#late-stage-filters).
 */
function countReaches(eb: PetitionsEb, threshold: number, byBand: boolean): Expression<SqlBool> {
  const reached = eb('petitions.signature_count', '>=', threshold);
  return byBand ? eb.and([eb(sql.ref('petitions.signature_band'), '>=', signatureBand(threshold)), reached]) : reached;
}

/**
 * The filters whose petitions are few and gather at the high counts: they come after a threshold or a
 * staff decision. Walking the count order from the fewest signatures up passes nearly every other
 * petition before finding a page of them, so that page reads them through their own indexes and sorts
 * them instead (petition-queries.ts).
 */
export const LATE_STAGE_FILTERS: ReadonlySet<StatusFilter> = new Set<StatusFilter>(['awaiting_response', 'with_response', 'awaiting_debate', 'debated', 'not_debated']);

function debateStatusIn(eb: PetitionsEb, dialect: SqlDialectName, statuses: string[]): Expression<SqlBool> {
  return eb(jsonTextField(dialect, eb.ref('petitions.debate_info'), 'status'), 'in', statuses);
}

/**
 * 1 when the response text is non-empty (toPetition's Boolean(governmentResponse)), else 0. Written
 * with literals, exactly as the petitions_response_state index of migration 0002, so SQLite uses it.
 */
function responseState(eb: PetitionsEb): Expression<number> {
  const response = eb.ref('petitions.government_response');
  return sql<number>`(CASE WHEN ${response} IS NOT NULL AND ${response} <> ${sql.lit('')} THEN 1 ELSE 0 END)`;
}

/** hasGovernmentResponse: a non-empty response, or the status says so. */
export function hasGovernmentResponseSql(eb: PetitionsEb): Expression<SqlBool> {
  return eb.or([eb(responseState(eb), '=', sql.lit(1)), eb('petitions.status', '=', 'government_response')]);
}

export function isDebatedSql(eb: PetitionsEb, dialect: SqlDialectName): Expression<SqlBool> {
  return eb.or([eb('petitions.status', '=', 'debated_in_parliament'), debateStatusIn(eb, dialect, ['debated'])]);
}

/**
 * The SQL condition of a status filter (docs/statuses.md#list-filters), or null for 'all'.
 * `thresholdsByBand`: see countReaches; only a page that walks its sort's index wants it off.
 */
export function statusFilterSql(eb: PetitionsEb, dialect: SqlDialectName, filter: StatusFilter, thresholdsByBand = true): Expression<SqlBool> | null {
  switch (filter) {
    case 'all':
      return null;
    case 'open':
      return eb('petitions.status', '<>', 'closed');
    case 'closed':
      return eb('petitions.status', '=', 'closed');
    case 'awaiting_response':
      return eb.or([
        eb('petitions.status', '=', 'awaiting_government_response'),
        eb.and([countReaches(eb, RESPONSE_THRESHOLD, thresholdsByBand), eb.not(hasGovernmentResponseSql(eb))]),
      ]);
    case 'with_response':
      return hasGovernmentResponseSql(eb);
    case 'awaiting_debate':
      return eb.or([
        eb('petitions.status', '=', 'awaiting_debate_in_parliament'),
        eb.and([countReaches(eb, DEBATE_THRESHOLD, thresholdsByBand), eb.not(hasDebateInfo(eb))]),
      ]);
    case 'debated':
      return isDebatedSql(eb, dialect);
    case 'not_debated':
      return eb.or([
        eb('petitions.status', '=', 'not_debated_in_parliament'),
        debateStatusIn(eb, dialect, ['cancelled', 'not_debated']),
      ]);
  }
}
