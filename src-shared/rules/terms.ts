/** Parliamentary term status (§4): a stored status wins; otherwise the UK calendar decides. */
import type { TermStatus } from '../domain/constants.ts';
import { londonDay } from './dates.ts';

export interface TermDates {
  startDate: string;
  endDate: string;
  status: TermStatus | null;
}

export function termStatus(term: TermDates, now: Date = new Date()): TermStatus {
  if (term.status) return term.status;
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
