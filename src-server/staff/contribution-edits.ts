/**
 * What saving a government response or a debate decides besides the text: the petition's status
 * after it, who added and who last edited it, and that the body names the petition in the address.
 */
import type { ContributionMeta, DebateInfo } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import type { PetitionRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';

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
