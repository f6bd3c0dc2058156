/**
 * What the console knows of its colleagues (docs/console-team.md#presence), mirrored from the main
 * process: presence and claims, the latest queue summary, and whether it can see them at all
 * (`connected`). `setSpot` says where this console is; the main process sends it and repeats it.
 */
import { create } from 'zustand';
import type { ConsoleApi, PresenceView } from '../../../src-shared/console/ipc-contract.ts';
import type { PresenceActivity } from '../../../src-shared/domain/team-constants.ts';
import { createReplyFence } from '../../services/replyFence.ts';
import { call } from '../consoleApi.ts';

export interface PresenceState {
  view: PresenceView;
  load(): Promise<void>;
  /** Where this console is: a petition and what it does there, or null. Never fails (presence is best effort). */
  setSpot(petitionId: number | null, activity?: PresenceActivity, renewClaim?: boolean): void;
}

const NOT_CONNECTED: PresenceView = { connected: false, unreachable: false, entries: [], queues: null };

export function createPresenceStore(api: ConsoleApi) {
  // In `console:browser` the call and the events travel on separate connections: a view the event brought
  // while `presence:get` was out is newer than its reply.
  const fence = createReplyFence();
  const store = create<PresenceState>()((set) => ({
    view: NOT_CONNECTED,
    async load() {
      try {
        const stillNewest = fence.begin();
        const view = await call(api, 'presence:get', {});
        if (stillNewest()) set({ view });
      } catch {
        // The event below brings it as soon as the main process has one.
      }
    },
    setSpot(petitionId, activity = 'viewing', renewClaim = false) {
      void call(api, 'presence:set', { petitionId, activity, renewClaim }).catch(() => undefined);
    },
  }));
  api.on('presence:changed', (view) => {
    fence.sawEvent();
    store.setState({ view });
  });
  return store;
}
