/**
 * The console's outbox as the renderer sees it, and the pure rules of its state machine
 * (docs/console-outbox.md). The store and the sync engine in `src-main/node`
 * apply these rules; the renderer only displays their results.
 */
import { z } from 'zod';
import { PetitionSchema } from '../domain/schemas.ts';
import { StaffActionSchema } from './staff-actions.ts';
import { exponentialCeilingMs } from '../rules/retry.ts';

import { OUTBOX_STATES } from './outbox-states.ts';

export { ATTENTION_STATES, FINAL_STATES, OUTBOX_STATES } from './outbox-states.ts';
export { waitsForBackend } from './backend-availability.ts';
export type { OutboxState } from './outbox-states.ts';
export const OutboxStateSchema = z.enum(OUTBOX_STATES);

export const OutboxEntrySchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  action: StaffActionSchema,
  /** One line for lists: "Government response to petition #12". */
  summary: z.string(),
  actorUserId: z.string(),
  batchId: z.string().nullable(),
  state: OutboxStateSchema,
  attempts: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  lastStatus: z.number().int().nullable(),
  /** The server's `detail` (or a network error) from the last attempt. */
  lastError: z.string().nullable(),
  /** For a conflict: the petition as the server has it now (who answered, when, with what). */
  serverPetition: PetitionSchema.nullable(),
  supersedesId: z.string().nullable(),
});
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

export const OutboxSummarySchema = z.object({
  queued: z.number().int(),
  sending: z.number().int(),
  attention: z.number().int(),
});
export type OutboxSummary = z.infer<typeof OutboxSummarySchema>;

/** What one server answer means for the row that was sent. */
export type SendOutcome = 'applied' | 'retry' | 'blocked_auth' | 'conflict' | 'rejected' | 'failed';

/**
 * Classifies an answer: `status` is the HTTP status, or null when the request never got an answer
 * (network error, timeout). Domain conflicts are 409s that are not the "request in progress" kind.
 */
export function classifyAnswer(status: number | null, problemType?: string | null): SendOutcome {
  if (status === null) return 'retry';
  if (status >= 200 && status < 300) return 'applied';
  if (status === 401) return 'blocked_auth';
  if (status === 412) return 'conflict';
  if (status === 409) return problemType === IDEMPOTENCY_IN_PROGRESS_TYPE ? 'retry' : 'conflict';
  if (status === 422 && problemType === IDEMPOTENCY_KEY_REUSED_TYPE) return 'failed';
  if (status === 408 || status === 425 || status === 429 || status >= 500) return 'retry';
  return 'rejected';
}

/** Problem `type`s the backend uses for the two Idempotency-Key answers the outbox must tell apart. */
export const IDEMPOTENCY_IN_PROGRESS_TYPE = 'urn:petitions:problem:idempotency-key-in-progress';
export const IDEMPOTENCY_KEY_REUSED_TYPE = 'urn:petitions:problem:idempotency-key-reused';

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_CAP_MS = 15 * 60_000;
/** After this many attempts a row is `failed` and shown to a person; it is never dropped. */
export const MAX_ATTEMPTS = 20;

/**
 * Capped exponential backoff with full jitter; a server's `Retry-After` (already in ms) wins when
 * it is longer. `random` is injected so tests are deterministic.
 */
export function backoffDelayMs(attempts: number, random: () => number, retryAfterMs?: number | null): number {
  const ceiling = exponentialCeilingMs(attempts, BACKOFF_BASE_MS, BACKOFF_CAP_MS);
  const jittered = Math.floor(random() * ceiling);
  return retryAfterMs != null ? Math.max(retryAfterMs, jittered) : jittered;
}

