/**
 * The time a staff action was made, as the console's outbox sends it (`X-Action-Made-At`, an ISO
 * 8601 instant) and the server accepts it (docs/console-outbox.md#made-at). The server refuses, with
 * 400, a time more than a small clock skew in the future or older than an outbox action may be:
 * 30 days, the time the server keeps an Idempotency-Key (an older action could no longer be told
 * apart from a new one, so it must not be applied).
 */
import { z } from 'zod';

/** Clocks of a laptop and the server may differ by this much. */
export const MADE_AT_FUTURE_SKEW_MS = 5 * 60_000;
/** The oldest action the server applies: also how long it keeps Idempotency-Keys. */
export const MADE_AT_MAX_AGE_MS = 30 * 24 * 60 * 60_000;

const MadeAtText = z.iso.datetime({ offset: true, message: 'X-Action-Made-At must be an ISO 8601 date and time, e.g. 2026-05-01T13:30:00Z' });

/** The instant the header gives, or the reason it is refused. */
export function readMadeAt(value: string, nowMs: number): { madeAt: Date } | { problem: string } {
  const parsed = MadeAtText.safeParse(value.trim());
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'X-Action-Made-At is not a date and time' };
  const madeAt = new Date(parsed.data);
  if (madeAt.getTime() > nowMs + MADE_AT_FUTURE_SKEW_MS) {
    return { problem: 'X-Action-Made-At is in the future: check the clock of the computer that made the action' };
  }
  if (madeAt.getTime() < nowMs - MADE_AT_MAX_AGE_MS) {
    return { problem: 'This action was made more than 30 days ago, longer than the server keeps what it applied: it is not applied' };
  }
  return { madeAt };
}

/**
 * The made-at the audit log keeps: a clock a little ahead of the server's (within the skew) may send
 * a made-at after the applied-at, and an action is never recorded as made after it was applied.
 */
export function recordedMadeAt(madeAt: Date, appliedAt: Date): Date {
  return madeAt.getTime() > appliedAt.getTime() ? appliedAt : madeAt;
}
