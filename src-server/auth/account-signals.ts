/**
 * The account signals a sign-in brings (docs/integrity.md#account-signals): when the ROBLOX account
 * was created (`created_at`, Unix seconds, in the ID token and userinfo) and whether it is verified
 * (`verified`, where the provider gives it). Claims come from outside, so they are validated here:
 * a missing, malformed or impossible value is treated as not given, never stored.
 */
import { z } from 'zod';

/** ROBLOX opened to the public in 2006; its oldest accounts date from 2004-2005. */
const EARLIEST_ACCOUNT_SECONDS = Date.UTC(2004, 0, 1) / 1000;
/** A creation time ahead of our clock by more than this is not believed (clock drift is smaller). */
const FUTURE_TOLERANCE_SECONDS = 24 * 60 * 60;

const UnixSeconds = z.union([z.number(), z.string().regex(/^\d{1,12}(?:\.\d+)?$/).transform(Number)]).pipe(z.number().finite());

export interface AccountSignals {
  /** ISO-8601 UTC, or null when the claims did not say (or said something impossible). */
  accountCreatedAt: string | null;
  accountVerified: boolean | null;
}

export function accountSignalsFromClaims(claims: Record<string, unknown>, now: Date): AccountSignals {
  const seconds = UnixSeconds.safeParse(claims.created_at);
  const latest = now.getTime() / 1000 + FUTURE_TOLERANCE_SECONDS;
  const createdAt =
    seconds.success && seconds.data >= EARLIEST_ACCOUNT_SECONDS && seconds.data <= latest
      ? new Date(Math.floor(seconds.data) * 1000).toISOString()
      : null;
  return { accountCreatedAt: createdAt, accountVerified: typeof claims.verified === 'boolean' ? claims.verified : null };
}
