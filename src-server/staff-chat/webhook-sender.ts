/** One POST to a Discord webhook, classified into sent, worth retrying, or refused for good. */
import { parseRetryAfter } from '../../src-shared/rules/retry.ts';

export const WEBHOOK_TIMEOUT_MS = 5_000;

export type WebhookOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; error: string; retryAfterMs: number | null; rateLimited: boolean }
  | { kind: 'refused'; error: string };

/** Timeouts, rate limits and server errors pass; other 4xx mean the message or webhook is wrong. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

async function retryAfterFromBody(response: Response): Promise<number | null> {
  try {
    const body = (await response.json()) as { retry_after?: unknown };
    return typeof body.retry_after === 'number' ? Math.ceil(body.retry_after * 1000) : null;
  } catch {
    return null;
  }
}

/** fetch says only "fetch failed"; the cause (ECONNREFUSED, ENOTFOUND…) is what an operator needs. */
function networkFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timed out';
  const cause = error.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' ? `${error.message} (${cause.code})` : error.message;
}

export async function postToWebhook(
  url: string,
  payload: string,
  options: { timeoutMs?: number; now: () => Date },
): Promise<WebhookOutcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
      signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error) {
    return { kind: 'retry', error: `Webhook request failed: ${networkFailure(error)}`, retryAfterMs: null, rateLimited: false };
  }
  if (response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { kind: 'sent' };
  }
  const error = `Webhook answered ${response.status}`;
  if (response.status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), options.now().getTime()) ?? (await retryAfterFromBody(response));
    await response.body?.cancel().catch(() => undefined);
    return { kind: 'retry', error, retryAfterMs, rateLimited: true };
  }
  await response.body?.cancel().catch(() => undefined);
  if (isRetryableStatus(response.status)) return { kind: 'retry', error, retryAfterMs: null, rateLimited: false };
  return { kind: 'refused', error };
}
