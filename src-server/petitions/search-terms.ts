/**
 * Turns what a visitor typed into a full-text query that cannot be a syntax error: only runs of
 * letters and digits survive, each is quoted, and the last word matches as a prefix so results
 * appear while the visitor is still typing.
 */

/** More words than this add nothing to a petition search but cost time. */
const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 40;

export interface SearchTerms {
  words: readonly string[];
}

export function parseSearchTerms(text: string | undefined): SearchTerms | null {
  if (!text) return null;
  const words = (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [])
    .map((word) => word.slice(0, MAX_WORD_LENGTH))
    .slice(0, MAX_WORDS);
  return words.length ? { words } : null;
}

/** SQLite FTS5: `"word" "word"*` — quoted strings are never parsed as operators or column filters. */
export function toFts5Query(terms: SearchTerms): string {
  return terms.words
    .map((word, index) => {
      const quoted = `"${word.replaceAll('"', '""')}"`;
      return index === terms.words.length - 1 ? `${quoted}*` : quoted;
    })
    .join(' ');
}

/** PostgreSQL tsquery: `word & word:*`. The words hold only letters and digits, so no operator can slip in. */
export function toTsQuery(terms: SearchTerms): string {
  return terms.words
    .map((word, index) => (index === terms.words.length - 1 ? `${word}:*` : word))
    .join(' & ');
}

/** FTS5, any of the words: `"word" OR "word"*` (the last word may still be being typed). */
export function toAnyFts5Query(terms: SearchTerms): string {
  return toFts5Query(terms).replace(/" "/g, '" OR "');
}

/** PostgreSQL tsquery, any of the words: `word | word:*`. */
export function toAnyTsQuery(terms: SearchTerms): string {
  return toTsQuery(terms).replaceAll(' & ', ' | ');
}
