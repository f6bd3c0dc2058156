/**
 * Sign out. With actions not yet sent it asks first: keep them for later (they wait for this
 * account to sign in again, on this computer) or discard them; "Sync now" first is one key away.
 */
import { useState } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { useStores } from '../state/context.tsx';

export function SignOutButton() {
  const { session, outbox } = useStores();
  const summary = outbox((s) => s.summary);
  const [asking, setAsking] = useState(false);
  const unsent = summary.queued + summary.sending + summary.attention;
  const signOut = (discardQueued: boolean) => {
    setAsking(false);
    void session.getState().signOut(discardQueued);
  };
  return (
    <>
      <button type="button" className="console-link-button" onClick={() => (unsent ? setAsking(true) : signOut(false))}>
        Sign out
      </button>
      <Dialog
        open={asking}
        title="Sign out with actions not sent"
        onClose={() => setAsking(false)}
        alert
        actions={
          <>
            <button type="button" className="button" onClick={() => signOut(false)}>
              Keep them and sign out
            </button>
            <button type="button" className="button button--warning" onClick={() => signOut(true)}>
              Discard them and sign out
            </button>
            <button type="button" className="button button--secondary" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </>
        }
      >
        <p>
          {unsent} {unsent === 1 ? 'action has' : 'actions have'} not reached the server yet. Kept actions are sent when
          you sign in again on this computer, never with another account.
        </p>
      </Dialog>
    </>
  );
}
