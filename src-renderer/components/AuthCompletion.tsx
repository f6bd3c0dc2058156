/**
 * Sign-in completion (AuthCompletionFlow.tsx) is needed only when the provider sends the browser back: on
 * /auth/callback, on an address carrying a `code`, or while a code is being exchanged. Only then is its
 * chunk loaded, so no other visit downloads it (docs/operations.md#javascript-weight).
 */
import { Suspense, lazy } from 'react';
import { useLocation } from 'react-router-dom';
import { useSession } from '../stores/index.ts';
import { AUTH_CALLBACK_PATH } from '../routes.ts';

const AuthCompletionFlow = lazy(() => import('./AuthCompletionFlow.tsx').then((m) => ({ default: m.AuthCompletionFlow })));

export function AuthCompletion() {
  const { pathname, search } = useLocation();
  const completing = useSession((s) => s.completing);
  const needed = completing || pathname === AUTH_CALLBACK_PATH || new URLSearchParams(search).has('code');
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <AuthCompletionFlow />
    </Suspense>
  );
}
