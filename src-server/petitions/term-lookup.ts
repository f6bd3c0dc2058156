/**
 * Terms as the shared rules see them. There are only a handful of terms, so they are read whole
 * and classified with termStatus() rather than re-deriving the date rule in SQL.
 */
import type { TermStatus } from '../../src-shared/domain/constants.ts';
import { currentTerm, type TermDates } from '../../src-shared/rules/terms.ts';
import type { TermRow } from '../db/schema.ts';
import type { Db } from './petition-record.ts';

export interface TermFacts extends TermDates {
  id: number;
  name: string;
}

function toTermFacts(row: TermRow): TermFacts {
  return {
    id: row.id,
    name: row.name,
    startDate: row.start_date,
    endDate: row.end_date,
    status: row.status as TermStatus | null,
  };
}

/** Newest first, so that if two terms are ever current at once the later one wins. */
export async function loadTerms(db: Db): Promise<TermFacts[]> {
  const rows = await db.selectFrom('terms').selectAll().orderBy('start_date', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toTermFacts);
}

export async function findCurrentTerm(db: Db, now: Date): Promise<TermFacts | null> {
  return currentTerm(await loadTerms(db), now);
}
