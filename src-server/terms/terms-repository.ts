/** Parliamentary terms as stored, and their API shape. */
import type { TermStatus } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Term } from '../../src-shared/domain/schemas.ts';
import { currentTerm, termStatus } from '../../src-shared/rules/terms.ts';
import type { Db, TermRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';

/** The API shape: the effective status at `now` in `status`, the stored one in `statusOverride`. */
export function toTerm(row: TermRow, now: Date): Term {
  const dates = { startDate: row.start_date, endDate: row.end_date, statusOverride: row.status as TermStatus | null };
  return { id: row.id, name: row.name, ...dates, status: termStatus(dates, now) };
}

export async function listTerms(db: Db, now: Date): Promise<Term[]> {
  const rows = await db.selectFrom('terms').selectAll().orderBy('start_date').orderBy('id').execute();
  return rows.map((row) => toTerm(row, now));
}

/** If two terms are ever current at once, the one that started later wins. */
export async function findCurrentTerm(db: Db, now: Date): Promise<Term | null> {
  return currentTerm((await listTerms(db, now)).reverse(), now);
}

export async function requireTerm(db: Db, id: number, now: Date): Promise<Term> {
  const row = await db.selectFrom('terms').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new HttpError(404, ERRORS.termNotFound);
  return toTerm(row, now);
}

export interface TermValues {
  name: string;
  startDate: string;
  endDate: string;
  status: TermStatus | null;
}

export async function insertTerm(db: Db, values: TermValues, now: Date): Promise<Term> {
  const stamp = now.toISOString();
  const row = await db
    .insertInto('terms')
    .values({
      name: values.name,
      start_date: values.startDate,
      end_date: values.endDate,
      status: values.status,
      created_at: stamp,
      updated_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTerm(row, now);
}

export async function updateTerm(db: Db, id: number, values: TermValues, now: Date): Promise<Term> {
  const row = await db
    .updateTable('terms')
    .set({
      name: values.name,
      start_date: values.startDate,
      end_date: values.endDate,
      status: values.status,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTerm(row, now);
}

/**
 * Petitions of the term stay, unassigned. Their version moves on too: a console holding one of them
 * must not later save an edit based on the old term.
 */
export async function deleteTerm(db: Db, id: number, now: Date): Promise<number> {
  const detached = await db
    .updateTable('petitions')
    .set((eb) => ({ term_id: null, version: eb('version', '+', 1), updated_at: now.toISOString() }))
    .where('term_id', '=', id)
    .executeTakeFirst();
  await db.deleteFrom('terms').where('id', '=', id).execute();
  return Number(detached.numUpdatedRows);
}
