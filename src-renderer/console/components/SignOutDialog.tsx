/**
 * The question before signing out with actions not sent yet: keep them for later (they wait for
 * this account to sign in again, on this computer) or discard them. Its own chunk (with the Dialog):
 * it is needed only when someone signs out with unsent actions.
 */
import { Dialog } from '../../components/Dialog.tsx';

export function SignOutDialog({
  open,
  unsent,
  onSignOut,
  onCancel,
}: {
  open: boolean;
  unsent: number;
  onSignOut: (discardQueued: boolean) => void;
  onCancel: () => void;
}) {
  return (
    <Dialog
      open={open}
      title="Sign out with actions not sent"
      onClose={onCancel}
      alert
      actions={
        <>
          <button type="button" className="button" onClick={() => onSignOut(false)}>
            Keep them and sign out
          </button>
          <button type="button" className="button button--warning" onClick={() => onSignOut(true)}>
            Discard them and sign out
          </button>
          <button type="button" className="button button--secondary" onClick={onCancel}>
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
  );
}
