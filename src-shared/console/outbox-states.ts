/**
 * The outbox's states and their groups, free of zod so the console renderer's first screen does
 * not carry the schema library (outbox.ts re-exports everything here).
 */
export const OUTBOX_STATES = [
  'pending', // queued, waiting its turn
  'sending', // claimed by the sync engine; a crash leaves it here and start-up resends it with the same key
  'retry_wait', // network error, 408, 429, 5xx or 409 "in progress": sent again after a backoff
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
