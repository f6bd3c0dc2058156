/**
 * How long to wait before trying again, shared by every retrying client: the server's chat
 * notifications, the console's outbox and the web app's live-events stream. Each picks its own
 * jitter (how far apart clients that failed together should come back); the growth and the reading
 * of a server's Retry-After are the same everywhere.
 */

/** The capped exponential ceiling after `attempts` failures (1 after the first): base, 2·base, 4·base, … ≤ cap. */
export function exponentialCeilingMs(attempts: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Retry-After as milliseconds from `nowMs`: delta-seconds (some servers send decimals such as "1.5")
 * or an HTTP date; null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
