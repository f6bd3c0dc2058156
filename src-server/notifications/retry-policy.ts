/** When to try a notification again: exponential backoff with jitter, or the wait Discord asks for. */

export interface RetryPolicy {
  /** Attempts in all, the first included; after the last one the message is marked failed. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Up to this fraction is added at random, so retries from many messages do not arrive together. */
  jitterRatio: number;
  /** A Retry-After longer than this is treated as this, so one odd header cannot park a message for days. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 5_000,
  maxDelayMs: 15 * 60_000,
  jitterRatio: 0.2,
  maxRetryAfterMs: 60 * 60_000,
};

/** `attempts` is how many attempts have been made so far (1 after the first failure). */
export function backoffDelayMs(attempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (1 + policy.jitterRatio * random()));
}

export function retryDelayMs(
  attempts: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== null) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  return backoffDelayMs(attempts, policy, random);
}

/** Retry-After is seconds (Discord sends decimals such as "1.5") or an HTTP date. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}
