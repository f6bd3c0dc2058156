/**
 * Colleagues in the queue (docs/console-team.md#presence): a row's note on who else is on its
 * petition, and the notice when the console cannot see them. What the petition screen shows and
 * sends is in PresenceOnPetition.tsx, which loads with that screen.
 */
import { useEffect, useState } from 'react';
import type { PresenceEntry } from '../../../src-shared/domain/team-schemas.ts';
import { othersOnPetition, PRESENCE_TEXTS, presenceText } from '../../../src-shared/rules/presence.ts';
import { useStores } from '../state/context.tsx';
import { useOnline, useUser } from '../state/selectors.ts';

/** An online console waits this long for its stream before saying it cannot see colleagues (start-up, a reconnect). */
const UNAVAILABLE_AFTER_MS = 3_000;

export function useOthers(petitionId: number): PresenceEntry[] {
  const entries = useStores().presence((s) => s.view.entries);
  const self = useUser()?.id ?? null;
  return othersOnPetition(entries, petitionId, self);
}

/** A queue row's note: the first colleague on the petition (a writer before a viewer), and how many more. */
export function PresenceNote({ petitionId }: { petitionId: number }) {
  const others = useOthers(petitionId);
  const first = others[0];
  if (!first) return null;
  return (
    <span className={`console-presence${first.activity === 'viewing' ? '' : ' console-presence--claim'}`}>
      {presenceText(first)}
      {others.length > 1 ? ` (and ${others.length - 1} more)` : ''}
    </span>
  );
}

/** Says when the console cannot see colleagues and their claims; nothing while it can. */
export function PresenceNotice() {
  const connected = useStores().presence((s) => s.view.connected);
  const unreachable = useStores().presence((s) => s.view.unreachable);
  const online = useOnline() && !unreachable;
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    setWaited(false);
    if (connected || !online) return;
    const timer = setTimeout(() => setWaited(true), UNAVAILABLE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [connected, online]);
  if (connected) return null;
  if (!online) return <p className="console-hint" data-testid="presence-notice">{PRESENCE_TEXTS.offline}</p>;
  return waited ? <p className="console-hint" data-testid="presence-notice">{PRESENCE_TEXTS.unavailable}</p> : null;
}
