/**
 * The only SQL in the petitions module that differs between SQLite and PostgreSQL:
 * full-text matching and reading one key of a JSON text column. Everything else is plain Kysely.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { SqlDialectName } from '../db/dialect.ts';
import type { SearchTerms } from './search-terms.ts';
import { toAnyFts5Query, toAnyTsQuery, toFts5Query, toTsQuery } from './search-terms.ts';

/**
 * `petitions.id` is among the petitions whose title or description match every search word.
 * With `inListOrder` the database walks the list's sort index and tests membership instead of
 * driving the query from the matches, which is far cheaper when thousands of petitions match and
 * only a page is wanted: SQLite is kept from the matches by a unary plus on the id; PostgreSQL by
 * an EXISTS under `IS TRUE`, which it does not turn into a join: each walked row is looked up in
 * the matches made one hashed set when they fit in its hash memory, or else by its key in
 * `petitions_tsv` (an `IN` there would scan every match for every walked row once they do not fit).
 * Fetching and sorting 8,000 matching rows took 80–90 ms on the benchmark's data, walking the
 * index about 20 (docs/operations.md#search-on-postgresql).
 */
export function fullTextMatch(dialect: SqlDialectName, terms: SearchTerms, inListOrder = false): RawBuilder<SqlBool> {
  if (dialect === 'postgres') {
    // The tsvector table of migration 0001 is keyed by the petition id, as FTS5's rowid is.
    if (inListOrder) {
      return sql<SqlBool>`(EXISTS (SELECT 1 FROM petitions_tsv WHERE petitions_tsv.petition_id = petitions.id AND ${postgresMatch(terms)})) IS TRUE`;
    }
    return sql<SqlBool>`petitions.id IN (SELECT petition_id FROM petitions_tsv WHERE ${postgresMatch(terms)})`;
  }
  // The FTS table is external-content over petitions, so its rowid is the petition id.
  const id = inListOrder ? sql`+petitions.id` : sql`petitions.id`;
  return sql<SqlBool>`${id} IN (SELECT rowid FROM petitions_fts WHERE petitions_fts MATCH ${toFts5Query(terms)})`;
}

/** PostgreSQL: a search's matches as fullTextMatchCount found them, kept by the list with its count. */
export interface KeptMatches {
  /** The matching ids, an array in PostgreSQL's text form. */
  ids: string;
  /** The highest petition id when they were found: a petition created since is searched for row by row. */
  lastId: number;
}

/**
 * PostgreSQL: `petitions.id` is among matches found earlier, so a page of a search kept by the list
 * does not search `petitions_tsv` again; a petition created since joins its searches at once, as
 * before. An edited title or description changes which kept searches a petition is in only when they
 * expire, as it changes their counts (docs/operations.md#search-on-postgresql).
 */
export function keptMatch(terms: SearchTerms, kept: KeptMatches, inListOrder = false): RawBuilder<SqlBool> {
  // A scalar subquery, which PostgreSQL runs per row through the key; it would turn an EXISTS into the whole search, hashed.
  const document = sql`(SELECT petitions_tsv.document FROM petitions_tsv WHERE petitions_tsv.petition_id = petitions.id)`;
  const createdSince = sql`petitions.id > ${kept.lastId} AND ${document} @@ ${tsQuery(terms)}`;
  const membership = sql<SqlBool>`(petitions.id = ANY (${kept.ids}::int[]) OR (${createdSince}))`;
  // `IS TRUE` keeps PostgreSQL from driving the query from the ids (see fullTextMatch); a constant list it hashes at any length.
  return inListOrder ? sql<SqlBool>`${membership} IS TRUE` : membership;
}

/** The stored tsvectors that match, through the GIN index of migration 0001 (same configuration). */
function postgresMatch(terms: SearchTerms): RawBuilder<SqlBool> {
  return sql<SqlBool>`petitions_tsv.document @@ ${tsQuery(terms)}`;
}

function tsQuery(terms: SearchTerms): RawBuilder<unknown> {
  return sql`to_tsquery('petitions_search', ${toTsQuery(terms)})`;
}

/**
 * How many petitions match the search alone: cheap, because it never touches the petitions table.
 * PostgreSQL also gives the matching ids, as one array in its text form, when there are at most
 * `keptIds` of them: finding them is most of a search's cost there (docs/operations.md#search-on-postgresql).
 */
export function fullTextMatchCount(
  dialect: SqlDialectName,
  terms: SearchTerms,
  keptIds: number,
): RawBuilder<{ total: number; ids?: string | null; last_id?: number | null }> {
  if (dialect === 'postgres') {
    return sql<{ total: number; ids: string | null; last_id: number | null }>`SELECT count(*) AS total,
        CASE WHEN count(*) <= ${keptIds} THEN array_agg(petition_id)::text END AS ids,
        CASE WHEN count(*) <= ${keptIds} THEN (SELECT max(id) FROM petitions) END AS last_id
      FROM petitions_tsv WHERE ${postgresMatch(terms)}`;
  }
  return sql<{ total: number }>`SELECT count(*) AS total FROM petitions_fts WHERE petitions_fts MATCH ${toFts5Query(terms)}`;
}

/**
 * One top-level key of a JSON object stored as text, or NULL when the column is empty.
 * Guarded so that a malformed value yields NULL instead of failing the whole query. The key is a
 * literal (always a constant of ours, never user input) so the expression matches the index of
 * migration 0002 character for character.
 */
export function jsonTextField(dialect: SqlDialectName, column: Expression<string | null>, key: 'status'): RawBuilder<string | null> {
  if (dialect === 'postgres') {
    return sql<string | null>`(CASE WHEN ${column} ~ '^\\s*\\{' THEN (${column})::jsonb ->> ${sql.lit(key)} END)`;
  }
  return sql<string | null>`(CASE WHEN json_valid(${column}) THEN json_extract(${column}, ${sql.lit(`$.${key}`)}) END)`;
}

/**
 * Open, publicly visible petitions that share words with a title (docs/moderation.md#similar-petitions),
 * best match first: any of the words may match (a new title rarely repeats an old one word for word),
 * ranked by the engine's own relevance (FTS5's bm25 rank, PostgreSQL's ts_rank), then by signatures.
 */
export function similarPetitionsQuery(dialect: SqlDialectName, terms: SearchTerms, limit: number): RawBuilder<SimilarRow> {
  if (dialect === 'postgres') {
    const query = sql`to_tsquery('petitions_search', ${toAnyTsQuery(terms)})`;
    return sql<SimilarRow>`SELECT petitions.id, petitions.title, petitions.signature_count, petitions.status, petitions.created_at
      FROM petitions_tsv JOIN petitions ON petitions.id = petitions_tsv.petition_id
      WHERE petitions_tsv.document @@ ${query} AND petitions.moderation_state IS NULL AND petitions.status <> 'closed'
      ORDER BY ts_rank(petitions_tsv.document, ${query}) DESC, petitions.signature_count DESC, petitions.id DESC
      LIMIT ${limit}`;
  }
  return sql<SimilarRow>`SELECT petitions.id, petitions.title, petitions.signature_count, petitions.status, petitions.created_at
    FROM petitions_fts JOIN petitions ON petitions.id = petitions_fts.rowid
    WHERE petitions_fts MATCH ${toAnyFts5Query(terms)} AND petitions.moderation_state IS NULL AND petitions.status <> 'closed'
    ORDER BY petitions_fts.rank, petitions.signature_count DESC, petitions.id DESC
    LIMIT ${limit}`;
}

export interface SimilarRow {
  id: number;
  title: string;
  signature_count: number;
  status: string;
  created_at: string;
}
