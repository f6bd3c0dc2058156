/** Bulk status override: the preview and the per-item results, as plain functions. */
import type { OutboxEntry } from '../../src-shared/console/outbox.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import type { StaffActionInput } from '../../src-shared/console/staff-actions.ts';

export interface BulkPreview {
  selected: number;
  willChange: number;
  unchanged: number;
}

export function bulkPreview(petitions: readonly Petition[], status: PetitionStatus | null): BulkPreview {
  const willChange = status ? petitions.filter((p) => p.status !== status).length : 0;
  return { selected: petitions.length, willChange, unchanged: status ? petitions.length - willChange : 0 };
}

export function bulkActions(petitions: readonly Petition[], status: PetitionStatus): StaffActionInput[] {
  return petitions.map((p) => ({ kind: 'petition.setStatus', petitionId: p.id, baseVersion: p.version, status }));
}

export type BulkResult = 'queued' | 'sending' | 'applied' | 'unchanged' | 'conflict' | 'not found' | 'forbidden' | 'rejected' | 'failed' | 'waiting for sign-in' | 'discarded';

export const RETRYABLE_RESULTS: readonly BulkResult[] = ['conflict', 'rejected', 'failed'];

/**
 * One petition's result. "unchanged" is an applied override on a petition that already had that
 * status when it was chosen (the server answers such a no-op with success).
 */
export function bulkResult(entry: OutboxEntry, statusWhenChosen: string | null): BulkResult {
  switch (entry.state) {
    case 'pending':
    case 'retry_wait':
      return 'queued';
    case 'sending':
      return 'sending';
    case 'applied':
      return entry.action.kind === 'petition.setStatus' && statusWhenChosen === entry.action.status ? 'unchanged' : 'applied';
    case 'conflict':
      return 'conflict';
    case 'rejected':
      return entry.lastStatus === 404 ? 'not found' : entry.lastStatus === 403 ? 'forbidden' : 'rejected';
    case 'failed':
      return 'failed';
    case 'blocked_auth':
      return 'waiting for sign-in';
    case 'cancelled':
      return 'discarded';
  }
}

export function countResults(results: readonly BulkResult[]): Partial<Record<BulkResult, number>> {
  const counts: Partial<Record<BulkResult, number>> = {};
  for (const r of results) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}
