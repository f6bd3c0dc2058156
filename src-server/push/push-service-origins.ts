/**
 * Which push services this server sends to (docs/notifications.md#web-push). A subscription's
 * endpoint is an address the browser hands us; sending to any address a client names would let a
 * member make the server POST to internal hosts (server-side request forgery). So endpoints must
 * belong to a known push service: Chrome's and Edge's (FCM), Firefox's (Mozilla autopush), Safari's
 * (Apple) and Windows' (WNS). PUSH_SERVICE_ORIGINS replaces the list (tests name a local push service).
 */

export const DEFAULT_PUSH_SERVICE_ORIGINS: readonly string[] = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.notify.windows.com',
];

const ORIGIN_PATTERN = /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/;

/** A comma-separated list of origins (`https://host[:port]`, `https://*.domain`); throws on anything else. */
export function parsePushServiceOrigins(text: string): string[] {
  const origins = text
    .split(',')
    .map((entry) => entry.trim().toLowerCase().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of origins) {
    if (!ORIGIN_PATTERN.test(origin)) {
      throw new Error(`PUSH_SERVICE_ORIGINS: "${origin}" is not an origin such as https://push.example.com or https://*.example.com`);
    }
  }
  return origins;
}

/** Whether an endpoint belongs to one of the allowed push services (same scheme, host and port). */
export function isAllowedPushEndpoint(endpoint: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const origin = url.origin.toLowerCase();
  return allowed.some((entry) => {
    const wildcard = /^(https?:\/\/)\*\.(.+)$/.exec(entry);
    if (!wildcard) return origin === entry;
    const [, scheme, domain] = wildcard as unknown as [string, string, string];
    return origin.startsWith(scheme) && origin.slice(scheme.length).endsWith(`.${domain}`);
  });
}

/** The origin shown for a device ("https://fcm.googleapis.com"): which push service, never the endpoint's secret path. */
export function pushServiceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return '';
  }
}
