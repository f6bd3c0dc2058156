/**
 * Web push (docs/notifications.md#web-push): a device's subscription as the browser's Push API gives
 * it (PushSubscription.toJSON()), the member's devices as the API lists them, and the payload the
 * service worker receives. The payload says which petition and what happened, nothing about anyone.
 */
import { z } from 'zod';
import { PETITION_EVENT_KINDS } from './feed-constants.ts';
import { PUSH_ENDPOINT_MAX_LENGTH, PUSH_PAYLOAD_VERSION } from './push-constants.ts';
import { IsoDateTime, idText } from './schemas.ts';

export const PUSH_MESSAGES = {
  endpoint: 'The endpoint must be the https address the browser’s push service gave',
  p256dh: 'keys.p256dh must be the browser’s P-256 public key (65 bytes, base64url)',
  auth: 'keys.auth must be the browser’s 16-byte authentication secret (base64url)',
  deviceId: 'A device id is a positive whole number, written in digits only',
} as const;

/** base64url of a 65-byte uncompressed P-256 point (it starts 0x04, so its text starts with "B"). */
const P256_PUBLIC_KEY = /^B[A-Za-z0-9_-]{86}=?$/;
/** base64url of 16 bytes. */
const AUTH_SECRET = /^[A-Za-z0-9_-]{22}(?:==)?$/;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * What `PushSubscription.toJSON()` gives, as the web app sends it. Whether the endpoint's push service
 * is one this site sends to (and https) is the server's configuration to decide (PUSH_SERVICE_ORIGINS).
 */
export const PushSubscriptionBody = z.strictObject({
  endpoint: z.string().max(PUSH_ENDPOINT_MAX_LENGTH, PUSH_MESSAGES.endpoint).refine(isHttpUrl, PUSH_MESSAGES.endpoint),
  /** Milliseconds since the epoch when the browser will drop it, or null (most browsers). */
  expirationTime: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  keys: z.strictObject({
    p256dh: z.string().regex(P256_PUBLIC_KEY, PUSH_MESSAGES.p256dh),
    auth: z.string().regex(AUTH_SECRET, PUSH_MESSAGES.auth),
  }),
});
export type PushSubscriptionRequest = z.infer<typeof PushSubscriptionBody>;

export const PushDeviceId = idText(PUSH_MESSAGES.deviceId);

/** One of the member's devices. The endpoint is shown only to its owner (the web app finds its own by it). */
export const PushDeviceSchema = z.object({
  id: z.number().int(),
  endpoint: z.string(),
  /** The push service's origin, e.g. https://fcm.googleapis.com: which browser family it is. */
  service: z.string(),
  createdAt: IsoDateTime,
  /** When a message last reached its push service (null: none yet). */
  lastDeliveredAt: IsoDateTime.nullable(),
});
export type PushDevice = z.infer<typeof PushDeviceSchema>;

export const PushDevicesSchema = z.object({ items: z.array(PushDeviceSchema) });
export type PushDevices = z.infer<typeof PushDevicesSchema>;

/** Whether this site sends web push, and the key a browser subscribes with (RFC 8292 applicationServerKey). */
export const PushConfigSchema = z.object({
  enabled: z.boolean(),
  /** The VAPID public key, base64url (65 bytes); null when push is off. */
  publicKey: z.string().nullable(),
});
export type PushConfig = z.infer<typeof PushConfigSchema>;

/**
 * What the service worker receives, decrypted. Public facts only: the petition's number and title
 * (as its page shows them) and what happened to it; never who signed, who acted or who receives it.
 */
export const PushPayloadSchema = z.object({
  v: z.literal(PUSH_PAYLOAD_VERSION),
  eventId: z.number().int().positive(),
  kind: z.enum(PETITION_EVENT_KINDS),
  petition: z.object({ id: z.number().int().positive(), title: z.string() }),
  /** What happened, in one line (feedEventSummary). */
  summary: z.string(),
  /** The petition's page, a path of this site: clicking the notification opens it. */
  url: z.string().regex(/^\/petition\/[1-9]\d*$/),
  at: IsoDateTime,
});
export type PushPayload = z.infer<typeof PushPayloadSchema>;
