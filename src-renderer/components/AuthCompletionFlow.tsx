/**
 * Finishes sign-in when the provider sends the browser back (docs/api-conventions.md#sessions): on
 * /auth/callback, or on any page whose address carries a `code`. Shows the full-screen 'Completing Sign In'
 * overlay while the code is exchanged, reports failures as notices on the home page, then removes code/state
 * from the address. A chunk of its own: AuthCompletion.tsx loads it only when an address needs it.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useNavigate } from '../navigation.ts';
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import { completeLogin, providerErrorMessage } from '../stores/signIn.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiFinishSignIn } from '../../src-shared/api/visitor-calls.ts';
import { platform } from '../platform/index.ts';
import { useFlash, useSession } from '../stores/index.ts';
import { AUTH_CALLBACK_PATH } from '../routes.ts';

/** Codes are single use: StrictMode's double effects and re-renders must not send one twice. */
const handled = new Set<string>();
/** The one call this chunk makes: the provider's code and state exchanged for a session. */
const SIGN_IN_API = { finishSignIn: (code: string, state: string) => apiFinishSignIn(apiCaller, code, state) };

export function withoutAuthParams(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const key of ['code', 'state', 'error', 'error_description', 'iss']) params.delete(key);
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}`;
}

export function AuthCompletionFlow() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const completing = useSession((s) => s.completing);

  useEffect(() => {
    const params = new URLSearchParams(search);
    const code = params.get('code');
    const isCallback = pathname === AUTH_CALLBACK_PATH;
    if (!isCallback && !code) return;
    const key = `${pathname}${search}`;
    if (handled.has(key)) return;
    handled.add(key);

    const fail = (text: string) => {
      useFlash.getState().push({ tone: 'error', text, path: '/' });
      navigate('/', { replace: true });
    };
    const error = params.get('error');
    if (error && isCallback) return fail(providerErrorMessage(error, params.get('error_description')));
    if (!code) return fail(SITE_ERRORS.noAuthorizationCode);

    void completeLogin(useSession, SIGN_IN_API, platform, code, params.get('state') ?? '').then((result) => {
      if (!result.ok) return fail(result.message);
      const fallback = isCallback ? '/' : withoutAuthParams(pathname, search);
      navigate(result.returnTo ?? fallback, { replace: true });
    });
  }, [pathname, search, navigate]);

  if (!completing) return null;
  return (
    <div className="overlay" role="status" aria-live="polite">
      <div className="overlay__box">
        <span className="spinner" aria-hidden="true" />
        <p className="overlay__title">Completing Sign In</p>
        <p>Please wait while we finish signing you in with ROBLOX.</p>
      </div>
    </div>
  );
}
