/** Loading a petition for a staff edit and saving the edit with a version bump. */
import type { Db, PetitionRow, PetitionUpdate } from '../db/schema.ts';
import { requirePetition } from '../petitions/petition-reads.ts';
import { assertVersion } from './if-match.ts';

/** 404 when missing, 412 (with the current petition) when the caller's If-Match names another version. */
export async function loadPetitionForChange(db: Db, id: number, expected: number[] | null): Promise<PetitionRow> {
  const row = await requirePetition(db, id);
  assertVersion(row, expected);
  return row;
}

/** Writes only the changed columns, so a signature counted meanwhile is never overwritten. */
export async function savePetitionChange(db: Db, row: PetitionRow, changes: PetitionUpdate, now: Date): Promise<PetitionRow> {
  const updated = await db
    .updateTable('petitions')
    .set({ ...changes, version: row.version + 1, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  if (updated) return updated;
  // Another writer got in between the read and this update (possible on databases without a single writer).
  const current = await requirePetition(db, row.id);
  assertVersion(current, [row.version]);
  return current;
}
