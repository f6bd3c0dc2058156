/**
 * What the answer to one sent row means for it (classified with the shared rule), and the bulk
 * calls for a batch of status overrides or of moderation decisions. The single call itself is the action's own
 * (src-shared/console/staff-action-calls.ts), made with the row's Idempotency-Key.
 */
import { ApiError, NetworkError, type ApiClient } from '../../../src-shared/api/client.ts';
import {
  backoffDelayMs,
  classifyAnswer,
  MAX_ATTEMPTS,
  waitsForBackend,
} from '../../../src-shared/console/outbox.ts';
import { parseRetryAfter } from '../../../src-shared/rules/retry.ts';
import { PetitionSchema, type Petition } from '../../../src-shared/domain/schemas.ts';
import type { BulkStatusItemResult } from '../../../src-shared/domain/sync-schemas.ts';
import type { ModerationBulkItemResult } from '../../../src-shared/domain/moderation-schemas.ts';
import type { OutboxRow } from '../outbox/outbox-row.ts';
import type { SendResult } from '../outbox/outbox-store.ts';

export interface ClassifyContext {
  now: number;
  random: () => number;
}

/** The server's current petition, from a 412 body (or a domain conflict that carries one). */
export function petitionFromProblem(error: ApiError): Petition | null {
  const parsed = PetitionSchema.safeParse((error.problem as { petition?: unknown } | null)?.petition);
  return parsed.success ? parsed.data : null;
}

/** Whether a failed call reached a working backend (an answer other than "not available"). */
export function reachedBackend(error: unknown): boolean {
  return error instanceof ApiError && !waitsForBackend(error.status, error.detail);
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
      // The backend was not there at all: the row waits for it (the console probes it and releases
      // the row when it answers), so this neither backs off nor counts towards giving up.
      if (waitsForBackend(status, error instanceof ApiError ? error.detail : null)) {
        return { state: 'retry_wait', status, error: message, nextAttemptAt: context.now };
      }
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

/**
 * The bulk call a row of a batch can go in: the rows of one bulk status override go as
 * `POST /api/petitions/bulk-status` (docs/console-outbox.md#bulk-status-override), the rows of one
 * bulk moderation as `POST /api/petitions/bulk-moderation` (docs/moderation.md#decisions). Either
 * call's item is exactly the row's single call, with the row's base version and its own key.
 */
export type BulkCall = 'status' | 'moderation';

const MODERATION_KINDS: ReadonlySet<string> = new Set(['moderation.keep', 'moderation.hide', 'moderation.reject', 'moderation.restore']);

export function bulkCallOf(row: OutboxRow): BulkCall | null {
  if (row.batchId === null) return null;
  if (row.action.kind === 'petition.setStatus') return 'status';
  if (MODERATION_KINDS.has(row.action.kind)) return 'moderation';
  return null;
}

function moderationItem(row: OutboxRow) {
  const { action } = row;
  const common = { expectedVersion: 'baseVersion' in action ? action.baseVersion : undefined, idempotencyKey: row.idempotencyKey };
  switch (action.kind) {
    case 'moderation.keep':
      return { petitionId: action.petitionId, action: { decision: 'keep' as const }, ...common };
    case 'moderation.restore':
      return { petitionId: action.petitionId, action: { decision: 'restore' as const }, ...common };
    case 'moderation.hide':
      return { petitionId: action.petitionId, action: { decision: 'hide' as const, reason: action.reason }, ...common };
    case 'moderation.reject':
      return { petitionId: action.petitionId, action: { decision: 'reject' as const, reasonCode: action.reasonCode }, ...common };
    default:
      throw new Error('only moderation decisions go in a bulk moderation call');
  }
}

/**
 * Sends rows of one batch (all of one BulkCall) as one bulk call and answers each row's result, in
 * the rows' order: each item means for its row what the single call's answer would.
 */
export async function sendBulkCall(client: ApiClient, rows: readonly OutboxRow[], context: ClassifyContext): Promise<SendResult[]> {
  // One batch was made at one time: sent as the earliest of its rows' times (docs/audit.md).
  const madeAt = rows.map((row) => row.entry.createdAt).sort()[0];
  const write = madeAt === undefined ? {} : { madeAt };
  const petitionIdOf = (row: OutboxRow) => ('petitionId' in row.action ? row.action.petitionId : -1);
  if (rows.every((row) => bulkCallOf(row) === 'moderation')) {
    const { results } = await client.moderatePetitions({ items: rows.map(moderationItem) }, write);
    const byPetition = new Map(results.map((item) => [item.petitionId, item]));
    return rows.map((row) => moderationItemResult(byPetition.get(petitionIdOf(row)), context));
  }
  const { results } = await client.setPetitionStatuses(
    {
      items: rows.map((row) => {
        if (row.action.kind !== 'petition.setStatus') throw new Error('only status overrides go in a bulk status call');
        return { petitionId: row.action.petitionId, status: row.action.status, expectedVersion: row.action.baseVersion, idempotencyKey: row.idempotencyKey };
      }),
    },
    write,
  );
  const byPetition = new Map(results.map((item) => [item.petitionId, item]));
  return rows.map((row) => bulkItemResult(byPetition.get(petitionIdOf(row)), context));
}

const noResult = (context: ClassifyContext): SendResult => ({
  state: 'retry_wait',
  status: null,
  error: 'The server gave no result for this petition',
  nextAttemptAt: context.now + 1000,
});

/** One item of a bulk status answer means for its row what the single call's answer would. */
export function bulkItemResult(item: BulkStatusItemResult | undefined, context: ClassifyContext): SendResult {
  if (!item) return noResult(context);
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

/**
 * One item of a bulk moderation answer, classified as its single call's answer would be
 * (docs/console-outbox.md#answer-classification): a refusal by the petition's state (409) is a
 * conflict a person resolves, carrying the petition as it stands; an unknown reason (400) is rejected.
 */
export function moderationItemResult(item: ModerationBulkItemResult | undefined, context: ClassifyContext): SendResult {
  if (!item) return noResult(context);
  switch (item.result) {
    case 'applied':
    case 'unchanged':
      return { state: 'applied', status: item.status, result: item.petition };
    case 'conflict':
      return { state: 'conflict', status: item.status, error: item.detail ?? 'Changed by someone else', serverPetition: item.petition };
    case 'refused':
      return item.status === 409
        ? { state: 'conflict', status: item.status, error: item.detail ?? 'Refused in its current state', serverPetition: item.petition }
        : { state: 'rejected', status: item.status, error: item.detail ?? 'Refused' };
    case 'not_found':
    case 'forbidden':
      return { state: 'rejected', status: item.status, error: item.detail ?? 'Refused' };
    case 'key_reused':
      return { state: 'failed', status: item.status, error: item.detail ?? 'Idempotency-Key reused' };
  }
}
