/**
 * Every staff action kind is exactly one backend call, made with the row's own Idempotency-Key and
 * (for petitions) its base version in If-Match. The answer is classified with the shared rule.
 */
import { ApiError, NetworkError, type ApiClient } from '../../../src-shared/api/client.ts';
import {
  backoffDelayMs,
  classifyAnswer,
  MAX_ATTEMPTS,
} from '../../../src-shared/console/outbox.ts';
import { parseRetryAfter } from '../../../src-shared/rules/retry.ts';
import type { StaffAction } from '../../../src-shared/console/staff-actions.ts';
import { PetitionSchema, type Petition } from '../../../src-shared/domain/schemas.ts';
import type { BulkStatusItemResult } from '../../../src-shared/domain/sync-schemas.ts';
import type { OutboxRow, SendResult } from '../outbox/outbox-store.ts';

export function callFor(client: ApiClient, action: StaffAction, idempotencyKey: string): Promise<unknown> {
  const write = { idempotencyKey };
  const petitionWrite = (baseVersion: number) => ({ idempotencyKey, ifMatch: baseVersion });
  switch (action.kind) {
    case 'response.save':
      return client.saveGovernmentResponse(action.petitionId, action.body, petitionWrite(action.baseVersion));
    case 'response.remove':
      return client.deleteGovernmentResponse(action.petitionId, petitionWrite(action.baseVersion));
    case 'debate.save':
      return client.saveDebateInfo(action.petitionId, action.body, petitionWrite(action.baseVersion));
    case 'debate.remove':
      return client.deleteDebateInfo(action.petitionId, petitionWrite(action.baseVersion));
    case 'petition.setStatus':
      return client.setPetitionStatus(action.petitionId, action.status, petitionWrite(action.baseVersion));
    case 'petition.assignTerm':
      return client.assignPetition(action.petitionId, action.termId, petitionWrite(action.baseVersion));
    case 'petition.delete':
      return client.deletePetition(action.petitionId, petitionWrite(action.baseVersion));
    case 'term.create':
      return client.createTerm(action.body, write);
    case 'term.update':
      return client.updateTerm(action.termId, action.body, write);
    case 'term.delete':
      return client.deleteTerm(action.termId, write);
    case 'ban.add':
      return client.ban(action.userId, action.body.reason, write);
    case 'ban.remove':
      return client.unban(action.userId, write);
    case 'site.maintenance':
      return client.setMaintenance(action.maintenance, write);
  }
}

export interface ClassifyContext {
  now: number;
  random: () => number;
}

/** The server's current petition, from a 412 body (or a domain conflict that carries one). */
export function petitionFromProblem(error: ApiError): Petition | null {
  const parsed = PetitionSchema.safeParse((error.problem as { petition?: unknown } | null)?.petition);
  return parsed.success ? parsed.data : null;
}

/** Turns the outcome of one call into the row's next state. */
export function resultOf(row: OutboxRow, outcome: { ok: true; body: unknown } | { ok: false; error: unknown }, context: ClassifyContext): SendResult {
  if (outcome.ok) return { state: 'applied', status: 200, result: outcome.body };
  const { error } = outcome;
  const status = error instanceof ApiError ? error.status : null;
  const problemType = error instanceof ApiError ? error.problem?.type : null;
  const message =
    error instanceof ApiError
      ? error.detail
      : error instanceof NetworkError
        ? 'The server could not be reached'
        : error instanceof Error
          ? error.message
          : String(error);
  const verdict = error instanceof ApiError || error instanceof NetworkError ? classifyAnswer(status, problemType) : 'retry';
  switch (verdict) {
    case 'applied':
      return { state: 'applied', status: status ?? 200, result: null };
    case 'retry': {
      if (row.attempts >= MAX_ATTEMPTS) {
        return { state: 'failed', status, error: `Gave up after ${row.attempts} attempts: ${message}` };
      }
      const retryAfterMs = error instanceof ApiError ? parseRetryAfter(error.retryAfter, context.now) : null;
      return {
        state: 'retry_wait',
        status,
        error: message,
        nextAttemptAt: context.now + backoffDelayMs(row.attempts, context.random, retryAfterMs),
      };
    }
    case 'blocked_auth':
      return { state: 'blocked_auth', status: status ?? 401, error: message };
    case 'conflict':
      return { state: 'conflict', status: status ?? 409, error: message, serverPetition: error instanceof ApiError ? petitionFromProblem(error) : null };
    case 'rejected':
    case 'failed':
      return { state: verdict, status, error: message };
  }
}

/** Rows of one bulk status override that can go as one `POST /api/petitions/bulk-status`. */
export function isBulkable(row: OutboxRow): boolean {
  return row.batchId !== null && row.action.kind === 'petition.setStatus';
}

/** The bulk call for such rows: each item carries its row's base version and its own key. */
export function bulkCallFor(client: ApiClient, rows: readonly OutboxRow[]) {
  return client.setPetitionStatuses({
    items: rows.map((row) => {
      if (row.action.kind !== 'petition.setStatus') throw new Error('only status overrides go in a bulk call');
      return { petitionId: row.action.petitionId, status: row.action.status, expectedVersion: row.action.baseVersion, idempotencyKey: row.idempotencyKey };
    }),
  });
}

/** One item of a bulk answer means for its row what the single call's answer would. */
export function bulkItemResult(item: BulkStatusItemResult | undefined, context: ClassifyContext): SendResult {
  if (!item) return { state: 'retry_wait', status: null, error: 'The server gave no result for this petition', nextAttemptAt: context.now + 1000 };
  switch (item.result) {
    case 'applied':
    case 'unchanged':
      return { state: 'applied', status: item.status, result: item.petition };
    case 'conflict':
      return { state: 'conflict', status: item.status, error: item.detail ?? 'Changed by someone else', serverPetition: item.petition };
    case 'not_found':
    case 'forbidden':
      return { state: 'rejected', status: item.status, error: item.detail ?? 'Refused' };
    case 'key_reused':
      return { state: 'failed', status: item.status, error: item.detail ?? 'Idempotency-Key reused' };
  }
}
