/** Where a browser may be sent after sign-in. Both checks exist to prevent open redirects. */

const MAX_RETURN_TO_LENGTH = 512;

/** A same-origin relative path: starts with one '/', no scheme, no host, no backslash tricks. */
export function safeReturnTo(value: string | undefined): string | null {
  if (!value || value.length > MAX_RETURN_TO_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // Control characters (tab, newline) are dropped by URL parsers and can turn '/\t/evil' into '//evil'.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  // The path must stay on our origin once resolved.
  const base = 'http://petitions.invalid';
  try {
    const resolved = new URL(value, base);
    if (resolved.origin !== base) return null;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return null;
  }
}

/**
 * RFC 8252 §7.3 loopback redirect for the desktop console: plain http to the loopback interface
 * on an explicit port. `localhost` is accepted because Roblox's dashboard only registers that form.
 */
export function loopbackRedirectUri(value: string | undefined): string | null {
  if (!value || value.length > 256) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const loopbackHost = url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
  if (url.protocol !== 'http:' || !loopbackHost || !url.port) return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return url.href;
}
