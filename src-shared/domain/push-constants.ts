/**
 * Web push (docs/notifications.md#web-push): the numbers the server, the web app and its service
 * worker share. Kept apart from push-schemas.ts so the settings page can read them without zod.
 */

/** A member may register this many devices (browsers); the oldest is replaced beyond it. */
export const PUSH_DEVICES_PER_MEMBER_MAX = 10;

/** Longest subscription endpoint accepted (real push services use a few hundred characters). */
export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

/**
 * How long the push service keeps a message for a device that is offline (RFC 8030 TTL header):
 * news of a petition is still news after a weekend, not after a month.
 */
export const PUSH_TTL_SECONDS = 3 * 24 * 60 * 60;

/** RFC 8030 Urgency of every message: petitions news is worth waking a phone for, not urgent. */
export const PUSH_URGENCY = 'normal';

/**
 * The clear-text payload stays well under what one aes128gcm record of 4096 bytes carries (RFC 8291:
 * 3993 bytes of content), so every push service accepts it.
 */
export const PUSH_PAYLOAD_MAX_BYTES = 3_000;

/** The payload format's version: a service worker reading a newer one shows nothing it misreads. */
export const PUSH_PAYLOAD_VERSION = 1;

/** The service worker's file and scope: served by the web app at its root (vite.config.ts builds it). */
export const SERVICE_WORKER_PATH = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';
