/**
 * What request logs must never hold: credentials a client put in the address (a token wrongly sent
 * as `?access_token=`, an OAuth code and state on the callback, a password in a link). Every query
 * parameter whose name looks like one is written as `[redacted]`; names are compared decoded, so
 * `%61ccess_token` is caught as well.
 */

/** Parameters that are credentials by name. */
const CREDENTIAL_NAMES = new Set([
  'code',
  'state',
  'iss',
  'nonce',
  'ticket',
  'auth',
  'authorization',
  'session',
  'sid',
  'key',
  'sig',
  'pwd',
  'pass',
]);
/** Parts of names that make a parameter a credential: access_token, id_token, client_secret, code_verifier, api_key… */
const CREDENTIAL_PARTS = /token|secret|passw|verifier|signature|api[-_]?key|credential|assertion|jwt|bearer|cookie|otp/i;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).trim().toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

export function isCredentialParameter(name: string): boolean {
  const decoded = decodedName(name);
  return CREDENTIAL_NAMES.has(decoded) || CREDENTIAL_PARTS.test(decoded);
}

/** The URL as it may be logged: every credential-like query parameter's value replaced. */
export function redactUrlCredentials(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const hashStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isCredentialParameter(name) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  // A fragment never reaches a server in a request line; if one does, it is dropped rather than judged.
  return `${url.slice(0, queryStart)}?${redacted}`;
}
