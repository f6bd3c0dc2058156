/**
 * Limits per client: what one caller (a client address, or a signed-in user where there is one)
 * may do in a window, and the texts it gets past them. The server enforces them (429 with
 * Retry-After for that caller only; docs/limits.md#rate-limits); the web app and the console read
 * the same numbers and texts, so what a person is told matches what the server decided.
 *
 * Every number is the default; each has an environment variable of the same idea on the server
 * (docs/limits.md#configuration).
 */

/** A fixed window: at most `max` calls per `windowMs` for one key. */
export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * The named rate limits. Keys are stable: the server's environment variables are
 * `RATE_LIMIT_<NAME IN UPPER SNAKE CASE>`, e.g. RATE_LIMIT_SIGN_IN=60/10m.
 */
export const RATE_LIMITS = {
  /**
   * Sign-in attempts started per client address (each holds a PKCE verifier on the server for ten
   * minutes). A person needs one or two; a classroom behind one address needs a few dozen.
   */
  signIn: { max: 60, windowMs: 10 * MINUTE_MS },
  /** List reads with search words, per signed-in user or (anonymous) client address: the expensive read. */
  search: { max: 30, windowMs: 10 * SECOND_MS },
  /** List reads without search words (cached on a large site), per user or client address. */
  list: { max: 120, windowMs: 10 * SECOND_MS },
  /** CSV downloads (up to 50,000 rows each), per user or client address. */
  export: { max: 10, windowMs: MINUTE_MS },
} as const satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** What a caller is told past each limit (the Problem Details `detail` of the 429). */
export const RATE_LIMIT_MESSAGES: Record<RateLimitName, string> = {
  signIn: 'Too many sign-in attempts from your network. Please try again in a few minutes.',
  search: 'Too many searches in a short time. Please wait a few seconds and try again.',
  list: 'Too many requests for petition lists in a short time. Please wait a few seconds and try again.',
  export: 'Too many downloads in a short time. Please wait a minute and try again.',
};

/** Open live-event streams (one per open page): per client address, per signed-in user. */
export const STREAM_LIMITS = {
  perClient: 100,
  perUser: 20,
} as const;

export const LIMIT_MESSAGES = {
  streamsPerClient: 'Too many live updates are open from your network. Close some tabs and try again.',
  streamsPerUser: 'Too many live updates are open for your account. Close some tabs and try again.',
  /** The whole server's share of connections is in use: not this caller's doing, so 503. */
  serverBusy: 'The server is busy right now; please try again in a moment',
} as const;

/** `30/10s` → 30 calls per 10 seconds; units ms, s, m, h, d. */
export function formatRateLimit(rule: RateLimitRule): string {
  const units: [string, number][] = [['d', DAY_MS], ['h', HOUR_MS], ['m', MINUTE_MS], ['s', SECOND_MS]];
  for (const [unit, ms] of units) if (rule.windowMs % ms === 0) return `${rule.max}/${rule.windowMs / ms}${unit}`;
  return `${rule.max}/${rule.windowMs}ms`;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: SECOND_MS, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS };

/** Reads `30/10s` (as formatRateLimit writes it); null when it is not one. */
export function parseRateLimit(text: string): RateLimitRule | null {
  const match = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!match) return null;
  const max = Number(match[1]);
  const windowMs = Number(match[2]) * UNIT_MS[match[3]!]!;
  return windowMs > 0 ? { max, windowMs } : null;
}
