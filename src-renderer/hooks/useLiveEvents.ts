/**
 * Opens the live stream of site state for the whole app (one per visible tab) and points it at the
 * petition the current page shows, so maintenance, "in session" and that petition's count follow the
 * server within a couple of seconds. A hidden tab drops its stream: browsers allow only a few
 * connections per site over HTTP/1.1, and background tabs should not cost the server; the tab
 * reconnects (and re-reads the status, see useAppBootstrap) the moment it is visible again.
 * Returns the connection so focus can re-check it. The stream's client is in the entry file: every page opens
 * the stream, and as a file of its own it cost every page more than in the entry (docs/operations.md#javascript-weight).
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { matchAppPath } from '../../src-shared/domain/app-paths.ts';
import { platform } from '../platform/index.ts';
import { connectLiveEvents } from '../services/liveEvents.ts';
import type { LiveEvents } from '../services/liveEvents.ts';
import { useLiveStream, useSession, useSite } from '../stores/index.ts';

/** The petition id of a /petition/:id path, or null. */
export function petitionIdOfPath(pathname: string): number | null {
  const match = matchAppPath(pathname);
  return match.kind === 'petition' ? match.id : null;
}

export function useLiveEvents(): React.RefObject<LiveEvents | null> {
  const live = useRef<LiveEvents | null>(null);
  const { pathname } = useLocation();
  const userId = useSession((s) => s.user?.id ?? null);
  const petitionId = petitionIdOfPath(pathname);
  // The petition shown when the stream opens (the watching effect below runs after this one).
  const watched = useRef(petitionId);

  useEffect(() => {
    const connection = connectLiveEvents({
      baseUrl: platform.apiBaseUrl,
      petitionId: watched.current,
      paused: document.visibilityState === 'hidden',
      onSite: (status) => useSite.getState().applyStatus(status),
      onCount: (count) => useLiveStream.getState().setCount(count),
      onUnread: (unread) => useLiveStream.getState().setUnread(unread),
      onConnected: (connected) => useLiveStream.getState().setConnected(connected),
    });
    live.current = connection;
    const onVisibility = () => (document.visibilityState === 'hidden' ? connection.pause() : connection.resume());
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      connection.close();
      live.current = null;
    };
  }, []);

  useEffect(() => {
    watched.current = petitionId;
    useLiveStream.getState().clearCounts();
    live.current?.watchPetition(petitionId);
  }, [petitionId]);

  // The server decides at connect time whether this viewer is exempt from maintenance, and whose
  // unread count the stream carries: another member's count must never linger in the header.
  const firstUser = useRef(true);
  useEffect(() => {
    if (firstUser.current) {
      firstUser.current = false;
      return;
    }
    useLiveStream.getState().setUnread(null);
    live.current?.reconnect();
  }, [userId]);

  return live;
}
