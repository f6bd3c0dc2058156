/**
 * The outbox's states and their groups, free of zod so the console renderer's first screen does
 * not carry the schema library (outbox.ts re-exports everything here).
 */

export const OUTBOX_STATES = [
  'pending', // queued, waiting its turn
  'sending', // claimed by the sync engine; a crash leaves it here and start-up resends it with the same key
  'retry_wait', // backend not available (waits for it), or 408, 429, 500, 409 "in progress", maintenance: sent again after a backoff
  'blocked_auth', // 401, or queued by someone else than the signed-in user: waits for that person
  'applied', // the server accepted it (including an idempotent replay or a no-op)
  'conflict', // 412 or a domain conflict: kept with the server's current petition for a human
  'rejected', // other 4xx: kept with the server's detail for a human
  'failed', // the Idempotency-Key was reused for another request (a client bug) or retries were exhausted
  'cancelled', // discarded by the user, or replaced by a resolution of a conflict
] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** States that need a person to look at them; the badge counts these as "needs attention". */
export const ATTENTION_STATES: readonly OutboxState[] = ['conflict', 'rejected', 'failed', 'blocked_auth'];
/** States that end a row's life; everything else is still on its way. */
export const FINAL_STATES: readonly OutboxState[] = ['applied', 'cancelled'];

/*
 * What a person may do with a row, by its state. The outbox store refuses any other transition;
 * the outbox panel offers only these, so a button never leads to a refusal.
 */
const RETRYABLE: readonly OutboxState[] = ['rejected', 'failed', 'retry_wait', 'blocked_auth'];
const DISCARDABLE: readonly OutboxState[] = ['pending', 'retry_wait', 'blocked_auth', 'conflict', 'rejected', 'failed'];
const RESUBMITTABLE: readonly OutboxState[] = ['conflict', 'rejected', 'failed'];

/** Send it again with the same Idempotency-Key (the payload is unchanged). */
export function canRetry(state: OutboxState): boolean {
  return RETRYABLE.includes(state);
}

/** Give it up: the row becomes `cancelled`; a row on its way (`sending`) or finished cannot be. */
export function canDiscard(state: OutboxState): boolean {
  return DISCARDABLE.includes(state);
}

/** Replace it with a new action (a new row and key) that supersedes it, e.g. to resolve a conflict. */
export function canResubmit(state: OutboxState): boolean {
  return RESUBMITTABLE.includes(state);
}
