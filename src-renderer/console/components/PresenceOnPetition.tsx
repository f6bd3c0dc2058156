/**
 * Colleagues on the petition screen (docs/console-team.md#presence): who else is on it and the
 * second writer's warning, and the hook that tells the main process where this console is (a
 * claim while a form is open). Loads with the petition screen, not with the queue.
 */
import { useEffect, useRef } from 'react';
import type { PresenceActivity } from '../../../src-shared/domain/team-constants.ts';
import { PRESENCE_CLAIM_RENEW_MS } from '../../../src-shared/domain/team-constants.ts';
import { claimWarning, presenceText } from '../../../src-shared/rules/presence.ts';
import { clockTime } from '../format.ts';
import { useStores } from '../state/context.tsx';
import { useOthers } from './Presence.tsx';

/** The petition screen's list of colleagues on it, and the warning for a second writer. */
export function PresenceSummary({ petitionId, activity }: { petitionId: number; activity: PresenceActivity }) {
  const others = useOthers(petitionId);
  const warning = activity === 'viewing' ? null : claimWarning(others, activity);
  return (
    <>
      {others.length ? (
        <ul className="console-presence-list" aria-label="Also on this petition">
          {others.map((entry) => (
            <li key={entry.userId}>
              {presenceText(entry)} ({entry.role}), since {clockTime(entry.since)}
            </li>
          ))}
        </ul>
      ) : null}
      {warning ? (
        <p className="console-warning" role="status">
          {warning}
        </p>
      ) : null}
    </>
  );
}

/**
 * Tells the main process this console is on the petition (viewing, or writing its response or
 * debate while the form is open) and that it left when the screen goes. `renew` is for typing: it
 * renews the claim at most every PRESENCE_CLAIM_RENEW_MS.
 */
export function usePresenceSpot(petitionId: number, activity: PresenceActivity): { renew: () => void } {
  const { presence } = useStores();
  const lastRenew = useRef(0);
  useEffect(() => {
    lastRenew.current = Date.now();
    presence.getState().setSpot(petitionId, activity);
  }, [presence, petitionId, activity]);
  useEffect(() => () => presence.getState().setSpot(null), [presence, petitionId]);
  return {
    renew() {
      if (activity === 'viewing' || Date.now() - lastRenew.current < PRESENCE_CLAIM_RENEW_MS) return;
      lastRenew.current = Date.now();
      presence.getState().setSpot(petitionId, activity, true);
    },
  };
}
