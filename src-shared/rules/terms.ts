/**
 * Parliamentary term status (docs/statuses.md#term-status): a stored status (the override) wins; otherwise
 * the UK calendar decides. The API sends the result in a term's `status` and the override in
 * `statusOverride`; clients re-derive it with this function only when time passes while they hold a term.
 */
import type { TermStatus } from '../domain/constants.ts';
import { londonDay } from './dates.ts';

export interface TermDates {
  startDate: string;
  endDate: string;
  /** The stored status; null follows the dates. */
  statusOverride: TermStatus | null;
}

export function termStatus(term: TermDates, now: Date = new Date()): TermStatus {
  if (term.statusOverride) return term.statusOverride;
  const today = londonDay(now);
  if (today < term.startDate) return 'upcoming';
  if (today > term.endDate) return 'completed';
  return 'current';
}

export function currentTerm<T extends TermDates>(terms: readonly T[], now: Date = new Date()): T | null {
  return terms.find((term) => termStatus(term, now) === 'current') ?? null;
}

/** Parliament is in session while any term is current. */
export function isInSession(terms: readonly TermDates[], now: Date = new Date()): boolean {
  return currentTerm(terms, now) !== null;
}
