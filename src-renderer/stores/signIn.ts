/**
 * Finishing a sign-in when the provider sends the browser back (docs/api-conventions.md#sessions): the code is
 * exchanged for a session, the session store loads the member, and the page to return to is chosen. Only the
 * sign-in completion (src-renderer/components/AuthCompletionFlow.tsx, a chunk loaded when an address carries a
 * code) uses it, so it is not part of the session store's first download (docs/operations.md#javascript-weight).
 */
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import { ApiError, NetworkError } from '../../src-shared/api/caller.ts';
import type { ApiClient } from '../../src-shared/api/client.ts';
import type { Platform } from '../platform/types.ts';
import { isSafeReturnPath } from '../platform/return-path.ts';
import type { SessionStore } from './session.ts';

export type CompleteLoginResult = { ok: true; returnTo: string | null } | { ok: false; message: string };
export type SignInApi = Pick<ApiClient, 'finishSignIn'>;
export type SignInPlatform = Pick<Platform, 'takeReturnTo'>;

export const AUTH_NETWORK_ERROR = 'Could not reach the server to complete sign-in. Please check your connection and try again.';

/** The message for a failed code exchange, by status (docs/rules.md#texts-and-messages). */
export function callbackErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 400) return SITE_ERRORS.invalidAuthorizationCode;
    if (error.status === 401) return SITE_ERRORS.authenticationExpired;
    if (error.status >= 500) return SITE_ERRORS.authenticationServerError;
    return error.detail || SITE_ERRORS.invalidAuthorizationCode;
  }
  if (error instanceof NetworkError) return AUTH_NETWORK_ERROR;
  return SITE_ERRORS.authenticationServerError;
}

/** The provider sent the user back with an error instead of a code (docs/rules.md#texts-and-messages). */
export function providerErrorMessage(error: string, description: string | null): string {
  return `Authentication failed: ${error} - ${description ?? ''}`.trimEnd().replace(/ -$/, '');
}

/**
 * Exchanges the provider's code and state for a session and loads the member into the store ('Completing Sign In'
 * while it runs); the page to return to is the server's (the returnTo it was given at login) or the tab's own note.
 */
export async function completeLogin(
  store: SessionStore,
  api: SignInApi,
  platform: SignInPlatform,
  code: string,
  state: string,
): Promise<CompleteLoginResult> {
  store.setState({ completing: true, error: null });
  try {
    const answer = await api.finishSignIn(code, state);
    await store.getState().load();
    const remembered = platform.takeReturnTo();
    const fromServer = typeof answer.returnTo === 'string' && isSafeReturnPath(answer.returnTo) ? answer.returnTo : null;
    return { ok: true, returnTo: fromServer ?? remembered };
  } catch (error) {
    platform.takeReturnTo();
    return { ok: false, message: callbackErrorMessage(error) };
  } finally {
    store.setState({ completing: false });
  }
}
