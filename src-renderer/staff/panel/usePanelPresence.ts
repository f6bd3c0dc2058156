/**
 * Presence and claims in the web's staff panel (docs/console-team.md#presence), as the console has
 * them: this tab says it is on the petition (a heartbeat while it stays), typing in the response
 * or debate form claims the petition (renewed while typing, back to viewing once sent), and the
 * staff event stream shows who else is here, so a second writer is warned.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { parsePresenceList } from '../../../src-shared/api/staff-events.ts';
import type { PresenceActivity } from '../../../src-shared/domain/team-constants.ts';
import { PRESENCE_CLAIM_RENEW_MS, PRESENCE_HEARTBEAT_MS, STAFF_EVENTS } from '../../../src-shared/domain/team-constants.ts';
import type { PresenceEntry } from '../../../src-shared/domain/team-schemas.ts';
import type { User } from '../../../src-shared/domain/schemas.ts';
import { othersOnPetition } from '../../../src-shared/rules/presence.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../../src-shared/domain/constants.ts';
import { platform } from '../../platform/index.ts';
import { api } from '../../services/api.ts';
import { createReplyFence } from '../../services/replyFence.ts';

/** This tab's presence client id: random, for as long as the page lives. */
let tabClientId: string | null = null;
function clientId(): string {
  if (!tabClientId) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    tabClientId = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }
  return tabClientId;
}

export interface PanelPresence {
  /** The others on this petition, writers first. */
  others: PresenceEntry[];
  /** Whether the staff event stream is open (else others are not known). */
  connected: boolean;
  /** Typing in a form: claim (or renew the claim on) the petition for this activity. */
  claim(activity: PresenceActivity): void;
  /** The answer was sent: back to viewing. */
  release(): void;
}

export function usePanelPresence(petitionId: number, user: User): PanelPresence {
  const [entries, setEntries] = useState<PresenceEntry[]>([]);
  const [connected, setConnected] = useState(false);
  const [activity, setActivity] = useState<PresenceActivity>('viewing');
  const lastRenew = useRef(0);
  const [fence] = useState(createReplyFence);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(api.links.streamStaffEvents(), { withCredentials: true });
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.addEventListener(STAFF_EVENTS.presence, (event) => {
      const list = parsePresenceList((event as MessageEvent<string>).data);
      if (!list) return;
      fence.sawEvent();
      setEntries(list.entries);
    });
    return () => source.close();
  }, [fence]);

  // Where this tab is, again every heartbeat; gone when the panel goes.
  useEffect(() => {
    const send = (renewClaim: boolean) => {
      // A list the stream brought meanwhile may hold a colleague who came after the reply was read.
      const stillNewest = fence.begin();
      void api.setStaffPresence(clientId(), { petitionId, activity, renewClaim }).then(
        (list) => {
          if (stillNewest()) setEntries(list.entries);
        },
        () => undefined,
      );
    };
    send(false);
    const heartbeat = setInterval(() => send(false), PRESENCE_HEARTBEAT_MS);
    return () => clearInterval(heartbeat);
  }, [fence, petitionId, activity]);
  useEffect(() => {
    // A closed tab or a new page load ends no React effect: `keepalive` lets the leave outlive the page.
    const leave = () =>
      void fetch(`${platform.apiBaseUrl}/api/staff/presence/${clientId()}`, {
        method: 'DELETE',
        keepalive: true,
        credentials: 'include',
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
      }).catch(() => undefined);
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      void api.clearStaffPresence(clientId()).catch(() => undefined);
    };
  }, [petitionId]);

  const claim = useCallback(
    (next: PresenceActivity) => {
      if (next !== activity) {
        lastRenew.current = Date.now();
        setActivity(next);
      } else if (next !== 'viewing' && Date.now() - lastRenew.current >= PRESENCE_CLAIM_RENEW_MS) {
        lastRenew.current = Date.now();
        void api.setStaffPresence(clientId(), { petitionId, activity: next, renewClaim: true }).catch(() => undefined);
      }
    },
    [activity, petitionId],
  );

  return {
    others: othersOnPetition(entries, petitionId, user.id),
    connected,
    claim,
    release: useCallback(() => setActivity('viewing'), []),
  };
}
