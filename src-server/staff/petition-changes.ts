/** Loading a petition for a staff edit and saving the edit with a version bump. */
import type { ContributionMeta, DebateInfo } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import type { Db, PetitionRow, PetitionUpdate } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
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

/** The status after a response or debate change, from the shared rule the public signing path also uses. */
export function statusAfter(
  row: PetitionRow,
  contribution: { governmentResponse: string | null; debateInfo: DebateInfo | null },
): string {
  return automaticStatus({ status: row.status, signatures: row.signature_count, ...contribution });
}

export interface Contributor {
  name: string;
  role: string;
}

/** A first save records who added it; later saves keep that and record who edited it last. */
export function contributionMeta(previous: ContributionMeta | null, by: Contributor, now: Date): ContributionMeta {
  const at = now.toISOString();
  if (!previous) {
    return { addedBy: by.name, addedByRole: by.role, addedAt: at, editedBy: null, editedByRole: null, editedAt: null };
  }
  return { ...previous, editedBy: by.name, editedByRole: by.role, editedAt: at };
}

export const PETITION_ID_MISMATCH = 'petition_id must be the petition in the address';

/** Refuses a body that names another petition than the URL: a client bug, not something to guess about. */
export function assertSamePetition(bodyPetitionId: number | undefined, pathId: number): void {
  if (bodyPetitionId !== undefined && bodyPetitionId !== pathId) throw new HttpError(400, PETITION_ID_MISMATCH);
}
