/**
 * Tells apart "the user's sign-in attempt is not valid" (their problem: 400) from "the identity
 * provider could not be reached or misbehaved" (ours: 502), for errors thrown by openid-client.
 */
import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';

/** Error codes that describe the upstream service, not the code or tokens the user brought. */
const UPSTREAM_CODES = new Set([
  'OAUTH_RESPONSE_IS_NOT_CONFORM',
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_TIMEOUT',
  'OAUTH_ABORT',
  'OAUTH_HTTP_REQUEST_FORBIDDEN',
  'OAUTH_REQUEST_PROTOCOL_FORBIDDEN',
  'OAUTH_UNSUPPORTED_OPERATION',
]);

/** Token-endpoint errors caused by the grant itself (RFC 6749 §5.2). */
const GRANT_ERRORS = new Set(['invalid_grant', 'invalid_request']);

export type ProviderFailure = 'rejected' | 'unavailable';

export function classifyProviderError(error: unknown): ProviderFailure {
  if (error instanceof ResponseBodyError) {
    return error.status < 500 && GRANT_ERRORS.has(error.error) ? 'rejected' : 'unavailable';
  }
  if (error instanceof AuthorizationResponseError) return 'rejected';
  if (error instanceof ClientError) {
    if (!error.code || UPSTREAM_CODES.has(error.code)) return 'unavailable';
    // ID token signature, nonce, state, iss, aud and timestamp checks all land here.
    return 'rejected';
  }
  return 'unavailable';
}

/** invalid_grant on refresh: the refresh token was revoked, expired or already used. */
export function isInvalidGrant(error: unknown): boolean {
  return error instanceof ResponseBodyError && error.error === 'invalid_grant';
}
