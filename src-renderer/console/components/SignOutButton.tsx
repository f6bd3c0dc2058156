/**
 * Sign out. With actions not yet sent it asks first (SignOutDialog): keep them for later or
 * discard them; "Sync now" first is one key away.
 */
import { lazy, Suspense, useState } from 'react';
import { useStores } from '../state/context.tsx';

const SignOutDialog = lazy(() => import('./SignOutDialog.tsx').then((m) => ({ default: m.SignOutDialog })));

export function SignOutButton() {
  const { session, outbox } = useStores();
  const summary = outbox((s) => s.summary);
  const [asking, setAsking] = useState(false);
  // Mounted from the first question on, so closing it (open=false) returns focus to this button.
  const [asked, setAsked] = useState(false);
  const unsent = summary.queued + summary.sending + summary.attention;
  const signOut = (discardQueued: boolean) => {
    setAsking(false);
    void session.getState().signOut(discardQueued);
  };
  return (
    <>
      <button type="button" className="console-link-button" onClick={() => {
          if (!unsent) return signOut(false);
          setAsked(true);
          setAsking(true);
        }}>
        Sign out
      </button>
      {asked ? (
        <Suspense fallback={null}>
          <SignOutDialog open={asking} unsent={unsent} onSignOut={signOut} onCancel={() => setAsking(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
