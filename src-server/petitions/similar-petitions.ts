/**
 * Similar petitions for the create page (docs/moderation.md#similar-petitions): up to five open,
 * publicly visible petitions whose words a new title shares, so a creator can sign one instead of
 * splitting the signatures of a small community between two petitions.
 */
import { SIMILAR_PETITIONS_MAX } from '../../src-shared/domain/moderation-constants.ts';
import type { SimilarPetition } from '../../src-shared/domain/moderation-schemas.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import type { AppContext } from '../context.ts';
import { parseSearchTerms } from './search-terms.ts';
import { similarPetitionsQuery } from './sql-dialect.ts';

/**
 * Words too common to say two titles are alike (PostgreSQL's English configuration drops these
 * anyway; FTS5's tokenizer keeps them, so they are dropped here for both engines alike).
 */
const COMMON_WORDS = new Set([
  'the', 'and', 'for', 'are', 'but', 'not', 'you', 'all', 'any', 'can', 'our', 'out', 'has', 'have', 'was', 'were', 'will',
  'should', 'must', 'with', 'this', 'that', 'from', 'they', 'them', 'their', 'there', 'what', 'when', 'who', 'why', 'how',
  'into', 'more', 'less', 'make', 'made', 'stop', 'let', 'get', 'its', 'been', 'being', 'than', 'then', 'also', 'about',
  'petition', 'petitions', 'please', 'government', 'new',
]);

/** Significant words of a title: letters and digits, three characters or more, not too common. */
export function significantWords(title: string): string[] {
  const terms = parseSearchTerms(title);
  if (!terms) return [];
  return [...new Set(terms.words.map((word) => word.toLowerCase()))].filter((word) => [...word].length >= 3 && !COMMON_WORDS.has(word));
}

export async function similarPetitions(context: Pick<AppContext, 'db' | 'dialect' | 'signatureCounts'>, title: string): Promise<SimilarPetition[]> {
  const words = significantWords(title);
  if (words.length === 0) return [];
  const { rows } = await similarPetitionsQuery(context.dialect, { words }, SIMILAR_PETITIONS_MAX).execute(context.db);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    signatures: context.signatureCounts.live(row.id, row.signature_count),
    status: row.status as PetitionStatus,
    created: row.created_at,
  }));
}
