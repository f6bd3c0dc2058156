/**
 * The console's pages come from `app://console/…`, never file:// (which would grant the page the
 * whole disk's origin). This module turns a request URL into a file under the renderer build and
 * refuses anything that would leave it; the Electron glue (src-main/electron/protocol.ts) and the
 * console:browser host serve what it resolves, with the CSP below.
 */
import fs from 'node:fs';
import path from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'console';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The console's Content-Security-Policy: only its own scripts and styles, no inline script, no
 * plugins, no framing, no forms. The renderer reaches the backend through the main process, so
 * `connect-src` stays 'self'; images may come from the backend (avatars).
 */
export function consoleCsp(options: { imageOrigins?: readonly string[] } = {}): string {
  const images = ["'self'", 'data:', ...(options.imageOrigins ?? [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${images}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Headers on every page the console serves. */
export function consoleSecurityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export type AppResolution =
  | { kind: 'file'; file: string; contentType: string }
  | { kind: 'refused'; status: 400 | 403 | 404; reason: string };

/**
 * Maps a request path (already stripped of scheme and host, e.g. `/assets/index-abc.js`) to a file
 * under `root`. Paths without an extension are app routes and get index.html (the router's SPA
 * fallback); encoded traversal, backslashes, NUL bytes and symlinks out of `root` are refused.
 */
export function resolveAppPath(root: string, requestPath: string): AppResolution {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath.split(/[?#]/, 1)[0] ?? '/');
  } catch {
    return { kind: 'refused', status: 400, reason: 'malformed path' };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) {
    return { kind: 'refused', status: 400, reason: 'malformed path' };
  }
  const segments = decoded.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) {
    return { kind: 'refused', status: 403, reason: 'path traversal' };
  }
  // The console has no API of its own origin: a page asking for /api/… is a bug (reads go through
  // `data:read`), and answering with index.html would hide it behind a JSON parse error.
  if (decoded === '/api' || decoded.startsWith('/api/')) {
    return { kind: 'refused', status: 404, reason: 'the console reads the API through the main process (data:read)' };
  }
  const realRoot = fs.realpathSync(root);
  const relative = decoded.replace(/^\/+/, '');
  const wantsRoute = relative === '' || path.extname(relative) === '';
  const candidate = path.resolve(realRoot, wantsRoute ? 'index.html' : relative);
  if (candidate !== realRoot && !candidate.startsWith(realRoot + path.sep)) {
    return { kind: 'refused', status: 403, reason: 'path traversal' };
  }
  let real: string;
  try {
    real = fs.realpathSync(candidate);
  } catch {
    return { kind: 'refused', status: 404, reason: 'not found' };
  }
  if (!real.startsWith(realRoot + path.sep) || !fs.statSync(real).isFile()) {
    return { kind: 'refused', status: real.startsWith(realRoot + path.sep) ? 404 : 403, reason: 'not found' };
  }
  return { kind: 'file', file: real, contentType: contentTypeFor(real) };
}

/** `app://console/assets/x.js` → its file; anything not on our scheme and host is refused. */
export function resolveAppUrl(root: string, url: string): AppResolution {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'refused', status: 400, reason: 'malformed URL' };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) {
    return { kind: 'refused', status: 403, reason: 'foreign origin' };
  }
  return resolveAppPath(root, parsed.pathname);
}
