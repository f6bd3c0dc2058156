/** When to try a chat message again: exponential backoff with jitter, or the wait Discord asks for. */
import { exponentialCeilingMs } from '../../src-shared/rules/retry.ts';

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
export function chatBackoffDelayMs(attempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = exponentialCeilingMs(attempts, policy.baseDelayMs, policy.maxDelayMs);
  return Math.round(exponential * (1 + policy.jitterRatio * random()));
}

export function retryDelayMs(
  attempts: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== null) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  return chatBackoffDelayMs(attempts, policy, random);
}

