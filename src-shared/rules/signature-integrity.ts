/**
 * What invalidating or restoring signatures does to a petition's status (docs/integrity.md#counts-and-statuses).
 * A status that agrees with what the petition's facts give follows the new count, exactly as a
 * signature or a removed one would move it: below 10 again, an "awaiting a response" petition is
 * open again; a response or debate already given stays. A status that does not agree with its facts
 * was set by hand (the administrator's override) and is left alone.
 */
import type { PetitionStatus } from '../domain/constants.ts';
import type { InvalidationJobKind, InvalidationJobState } from '../domain/integrity-schemas.ts';
import { automaticStatus, type ClassifiablePetition } from './classification.ts';

export function statusAfterRecount(petition: ClassifiablePetition & { status: PetitionStatus }, signaturesAfter: number): PetitionStatus {
  if (automaticStatus(petition) !== petition.status) return petition.status;
  return automaticStatus({ ...petition, signatures: signaturesAfter });
}

/**
 * Which jobs may still be cancelled or restored (docs/integrity.md#invalidation): the server refuses
 * the others (409), the screens offer only these.
 */
export function isJobUnfinished(job: { state: string }): boolean {
  return job.state === ('queued' satisfies InvalidationJobState) || job.state === ('running' satisfies InvalidationJobState);
}

export function canCancelJob(job: { state: string; cancelRequested: boolean }): boolean {
  return isJobUnfinished(job) && !job.cancelRequested;
}

/** An invalidation that has stopped (finished, cancelled or failed) and was not restored yet. */
export function canRestoreJob(job: { kind: string; state: string; restoredByJobId: number | null }): boolean {
  return job.kind === ('invalidate' satisfies InvalidationJobKind) && !isJobUnfinished(job) && job.restoredByJobId === null;
}
