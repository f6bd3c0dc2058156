/**
 * Shows the flash notices for the current page (replacing the old alerts), the session error, and
 * a warning when the server could not read the user's ROBLOX groups at sign-in.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useFlash, useSession } from '../stores/index.ts';
import { visibleNotices } from '../stores/flash.ts';
import { Notice } from './Notice.tsx';

export const GROUPS_UNAVAILABLE_TEXT =
  'Your ROBLOX groups could not be checked when you signed in, so signing and creating petitions are unavailable for now. Log out and log in again later to try again.';

export function FlashNotices() {
  const { pathname } = useLocation();
  const notices = useFlash((s) => s.notices);
  const sessionError = useSession((s) => s.error);
  const clearSessionError = useSession((s) => s.clearError);
  const groupsUnavailable = useSession((s) => s.user?.groups_unavailable === true);
  const shown = visibleNotices(notices, pathname);

  useEffect(() => {
    useFlash.getState().pathChanged(pathname);
  }, [pathname]);
  useEffect(() => {
    if (shown.length > 0) useFlash.getState().markShown(pathname);
  }, [shown.length, pathname]);

  if (shown.length === 0 && !sessionError && !groupsUnavailable) return null;
  return (
    <div className="flash">
      {groupsUnavailable ? (
        <Notice tone="warning">
          <p>{GROUPS_UNAVAILABLE_TEXT}</p>
        </Notice>
      ) : null}
      {sessionError ? (
        <Notice tone="error" live="alert" onDismiss={clearSessionError}>
          <p>{sessionError}</p>
        </Notice>
      ) : null}
      {shown.map((n) => (
        <Notice
          key={n.id}
          tone={n.tone === 'success' ? 'success' : n.tone === 'error' ? 'error' : 'info'}
          live={n.tone === 'error' ? 'alert' : 'status'}
          onDismiss={() => useFlash.getState().dismiss(n.id)}
        >
          <p>{n.text}</p>
        </Notice>
      ))}
    </div>
  );
}
