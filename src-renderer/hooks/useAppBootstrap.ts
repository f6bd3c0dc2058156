/**
 * App-wide wiring, run once from <App>: first loads, the live stream of site state, the polls of
 * docs/rules.md#timings, the app's window events, and the re-checks when the window regains focus or the tab
 * becomes visible.
 */
import { useEffect } from 'react';
import { useNavigate } from '../navigation.ts';
import { EXPIRY_CHECK_INTERVAL_MS, TERMS_POLL_INTERVAL_MS } from '../../src-shared/domain/core-constants.ts';
import { apiCaller, onMaintenanceAnswer } from '../services/apiCaller.ts';
import { apiCloseExpiredPetitions } from '../../src-shared/api/visitor-calls.ts';
import {
  NAVIGATE_HOME_EVENT,
  PETITIONS_UPDATED_EVENT,
  announcePetitionsUpdated,
  usePetitionsVersion,
  useLiveStream,
  useSession,
  useSite,
} from '../stores/index.ts';
import { usePolling } from './usePolling.ts';
import { useLiveEvents } from './useLiveEvents.ts';

/** Focus events come in bursts (alt-tab, dialogs); one session re-check per few seconds is plenty. */
const FOCUS_RECHECK_MIN_MS = 5_000;
/** The site status is cheap to read and must be right at once when the user comes back. */
const FOCUS_STATUS_MIN_MS = 1_000;

export async function checkExpiredPetitions(): Promise<number> {
  try {
    const { closed } = await apiCloseExpiredPetitions(apiCaller);
    if (closed > 0) announcePetitionsUpdated();
    return closed;
  } catch {
    return 0; // only logged in the old client; the next tick tries again
  }
}

export function useAppBootstrap(): void {
  const navigate = useNavigate();
  const live = useLiveEvents();

  useEffect(() => {
    void useSession.getState().load();
    void useSite.getState().refresh();
    const offMaintenance = onMaintenanceAnswer(() => useSite.getState().setMaintenance(true));

    let lastFocusCheck = Date.now();
    let lastStatusCheck = Date.now();
    const onReturn = () => {
      if (Date.now() - lastStatusCheck >= FOCUS_STATUS_MIN_MS) {
        lastStatusCheck = Date.now();
        void useSite.getState().refreshStatus();
        live.current?.recheck();
      }
      if (Date.now() - lastFocusCheck < FOCUS_RECHECK_MIN_MS) return;
      lastFocusCheck = Date.now();
      void useSession.getState().recheck();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') onReturn();
    };
    const onPetitionsUpdated = () => usePetitionsVersion.getState().bump();
    window.addEventListener('focus', onReturn);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener(PETITIONS_UPDATED_EVENT, onPetitionsUpdated);
    return () => {
      offMaintenance();
      window.removeEventListener('focus', onReturn);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener(PETITIONS_UPDATED_EVENT, onPetitionsUpdated);
    };
  }, [live]);

  useEffect(() => {
    const onNavigateHome = () => navigate('/');
    window.addEventListener(NAVIGATE_HOME_EVENT, onNavigateHome);
    return () => window.removeEventListener(NAVIGATE_HOME_EVENT, onNavigateHome);
  }, [navigate]);

  // The terms are polled (docs/rules.md#timings); the status only while the live stream is down (it pushes the status).
  usePolling(
    () => void (useLiveStream.getState().connected ? useSite.getState().refreshTerms() : useSite.getState().refresh()),
    TERMS_POLL_INTERVAL_MS,
  );
  usePolling(() => void checkExpiredPetitions(), EXPIRY_CHECK_INTERVAL_MS);
}
