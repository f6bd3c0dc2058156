/**
 * Sends one push message to one device (RFC 8030): the payload encrypted to the device's keys
 * (RFC 8291, aes128gcm) and signed for our VAPID key (RFC 8292), both by the `web-push` library
 * (getVapidHeaders here; generateRequestDetails on the encryption thread, encryption-pool.ts), then
 * POSTed with Node's fetch. Sending ourselves rather than with web-push's sendNotification keeps one
 * pooled HTTP client for thousands of messages, a timeout per request, no redirects followed, and the
 * answer classified here (docs/notifications.md#web-push).
 */
import webpush from 'web-push';
import { PUSH_URGENCY } from '../../src-shared/domain/push-constants.ts';
import { parseRetryAfter } from '../../src-shared/rules/retry.ts';
import { createEncryptionPool, EncryptionThreadStopped, type EncryptionPool } from './encryption-pool.ts';
import type { WebPushSettings } from './web-push-settings.ts';

export const PUSH_REQUEST_TIMEOUT_MS = 10_000;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  /** The clear-text payload (JSON). */
  payload: string;
  /** RFC 8030 Topic: a message sent again replaces the copy the push service still holds. */
  topic: string;
  /** Seconds the push service may keep it for an offline device. */
  ttlSeconds: number;
}

export type PushOutcome =
  | { kind: 'sent'; status: number }
  /** 404 or 410: the subscription no longer exists; forget the device. */
  | { kind: 'gone'; status: number }
  /** Worth trying again later: 429, 5xx, 408, a timeout or a network failure; `retryAfterMs` when the service said. */
  | { kind: 'retry'; status: number | null; retryAfterMs: number | null; error: string }
  /** Trying again would not help (400, 401, 403, 413, a redirect…). */
  | { kind: 'refused'; status: number; error: string };

/** How a push service's answer is read (RFC 8030 section 5, and what FCM, Mozilla, Apple and WNS answer). */
export function classifyPushAnswer(status: number, retryAfter: string | null, body: string, nowMs: number): PushOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent', status };
  if (status === 404 || status === 410) return { kind: 'gone', status };
  const error = `${status}${body ? `: ${body.slice(0, 200)}` : ''}`;
  if (status === 429 || status === 408 || status >= 500) {
    return { kind: 'retry', status, retryAfterMs: parseRetryAfter(retryAfter, nowMs), error };
  }
  return { kind: 'refused', status, error };
}

/** A VAPID JWT is signed once per push service and reused this long (it is valid for 12 hours: web-push's default). */
export const VAPID_TOKEN_REUSE_MS = 60 * 60_000;

export interface PushSender {
  send(target: PushTarget, message: PushMessage, timeoutMs?: number): Promise<PushOutcome>;
  /** Stops the encryption thread. */
  close(): Promise<void>;
}

/**
 * A sender for one server's keys. The VAPID Authorization header is per push service (its origin is
 * the JWT's audience), so it is signed once an hour per service rather than once per message: signing
 * is a third of a message's CPU. The payload is encrypted per message, as RFC 8291 requires.
 */
export function createPushSender(
  settings: Pick<WebPushSettings, 'publicKey' | 'privateKey' | 'subject'>,
  options: { now?: () => number; pool?: EncryptionPool } = {},
): PushSender {
  const now = options.now ?? Date.now;
  const pool = options.pool ?? createEncryptionPool();
  const tokens = new Map<string, { authorization: string; signedAt: number }>();

  function authorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const cached = tokens.get(audience);
    if (cached && now() - cached.signedAt < VAPID_TOKEN_REUSE_MS) return cached.authorization;
    const headers = webpush.getVapidHeaders(audience, settings.subject, settings.publicKey, settings.privateKey, 'aes128gcm');
    const fresh = { authorization: String(headers.Authorization), signedAt: now() };
    tokens.set(audience, fresh);
    return fresh.authorization;
  }

  async function send(target: PushTarget, message: PushMessage, timeoutMs = PUSH_REQUEST_TIMEOUT_MS): Promise<PushOutcome> {
    let request;
    try {
      request = await pool.encrypt({
        endpoint: target.endpoint,
        p256dh: target.p256dh,
        auth: target.auth,
        payload: message.payload,
        ttlSeconds: message.ttlSeconds,
        urgency: PUSH_URGENCY,
        topic: message.topic,
        authorization: authorization(target.endpoint),
      });
    } catch (error) {
      if (error instanceof EncryptionThreadStopped) return { kind: 'retry', status: null, retryAfterMs: null, error: error.message };
      // Keys a browser would never give (the schema only checks their shape): trying again cannot help.
      return { kind: 'refused', status: 0, error: `could not encrypt: ${error instanceof Error ? error.message : String(error)}` };
    }
    try {
      const response = await fetch(target.endpoint, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await response.text().catch(() => '');
      return classifyPushAnswer(response.status, response.headers.get('retry-after'), body, now());
    } catch (error) {
      const reason = error instanceof Error ? (error.name === 'TimeoutError' ? 'timed out' : error.message) : String(error);
      return { kind: 'retry', status: null, retryAfterMs: null, error: reason };
    }
  }

  return { send, close: () => pool.close() };
}
