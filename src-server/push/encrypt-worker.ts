/**
 * The web push encryption thread (encryption-pool.ts): builds each message's request with web-push
 * (RFC 8291 aes128gcm to the device's keys; a millisecond of CPU each), off the thread that answers
 * API requests. It receives what to encrypt and answers the headers and body to POST.
 */
import { parentPort } from 'node:worker_threads';
import webpush from 'web-push';

export interface EncryptRequest {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  topic: string;
  authorization: string;
}

export type EncryptAnswer = { id: number; headers: Record<string, string>; body: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (request: EncryptRequest) => {
  try {
    const details = webpush.generateRequestDetails({ endpoint: request.endpoint, keys: { p256dh: request.p256dh, auth: request.auth } }, request.payload, {
      contentEncoding: 'aes128gcm',
      TTL: request.ttlSeconds,
      urgency: request.urgency,
      topic: request.topic,
      headers: { Authorization: request.authorization },
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
    // fetch sets the length itself.
    delete headers['Content-Length'];
    const body = new Uint8Array(details.body);
    parentPort?.postMessage({ id: request.id, headers, body } satisfies EncryptAnswer, [body.buffer]);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies EncryptAnswer);
  }
});
