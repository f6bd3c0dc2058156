/**
 * What the console renderer may ask the main process to read (`data:read`): one canonical path of
 * the backend API, the form `fetch` sends unchanged. Anything a URL parser would rewrite (a `..`
 * or `.` segment, written plainly or percent-encoded, a backslash, a scheme or host) could walk the
 * read out of `/api/` and is refused, with a message naming the reason.
 * Rules: docs/console-security.md#what-dataread-may-read
 */
import { z } from 'zod';

export const API_READ_PATH_MAX = 2000;

/** Characters a canonical path and query consist of (RFC 3986 pchar, `/` and `?`); no `#`, `\`, spaces. */
const URL_CHARACTERS = /^[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*$/;
/** An escape of `.`, `/`, `\` or `%` itself: only a path trick needs one in a path. */
const ENCODED_SEPARATOR = /%(2e|2f|5c|25)/i;
const MALFORMED_ESCAPE = /%(?![0-9a-f]{2})/i;
/** Any origin will do: only whether resolving changes the path matters. */
const PROBE_ORIGIN = 'http://console-read.invalid';

/** Why `path` is not a canonical API read path, or null when it is one. */
export function apiReadPathProblem(path: string): string | null {
  if (!path.startsWith('/api/')) return 'A read is a path under /api/ (no scheme or host).';
  if (!URL_CHARACTERS.test(path)) return 'A read path may not contain spaces, backslashes, "#" or other characters outside a URL.';
  if (MALFORMED_ESCAPE.test(path)) return 'A read path has a "%" that starts no escape.';
  const queryAt = path.indexOf('?');
  const pathPart = queryAt === -1 ? path : path.slice(0, queryAt);
  const segments = pathPart.split('/').slice(1);
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'A read path has no "." or ".." segments.';
  // Query values may escape anything (a search for "a/b" is sent as q=a%2Fb): only the path is resolved.
  if (ENCODED_SEPARATOR.test(pathPart)) return 'A read path has no percent-encoded dots, slashes, backslashes or percent signs.';
  if (segments.slice(0, -1).some((segment) => segment === '')) return 'A read path has no empty segments ("//").';
  // Whatever else a URL parser would rewrite (it is what fetch applies) is not canonical either.
  const resolved = new URL(path, PROBE_ORIGIN);
  if (resolved.origin !== PROBE_ORIGIN || `${resolved.pathname}${resolved.search}` !== path) {
    return 'A read path must be canonical: resolving it may not change it.';
  }
  return null;
}

export const ApiReadPath = z
  .string()
  .max(API_READ_PATH_MAX)
  .superRefine((path, context) => {
    const problem = apiReadPathProblem(path);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
