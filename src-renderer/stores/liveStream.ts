/**
 * The live stream as pages see it: the signature counts it pushed, and whether it is connected (pages poll
 * for themselves only while it is not).
 *
 *   useLiveStream((s) => s.counts[petitionId])   // PetitionCount | undefined
 *   useLiveStream((s) => s.connected)
 *   useLiveStream((s) => s.unread)                  // the member's unread notifications, null when nobody is signed in
 */
import { create } from 'zustand';
import type { PetitionCount } from '../../src-shared/domain/schemas.ts';

export interface LiveStreamState {
  connected: boolean;
  counts: Record<number, PetitionCount>;
  /** The signed-in member's unread notifications (`unread` events; pages that read them put the server's answer in too). */
  unread: number | null;
  setConnected(connected: boolean): void;
  setUnread(unread: number | null): void;
  setCount(count: PetitionCount): void;
  /** Forgets the counts (another petition is watched now: an old count must not overwrite a fresh page). */
  clearCounts(): void;
}

export function createLiveStreamStore() {
  return create<LiveStreamState>()((set) => ({
    connected: false,
    counts: {},
    unread: null,
    setConnected: (connected) => set({ connected }),
    setUnread: (unread) => set({ unread }),
    setCount: (count) => set((state) => ({ counts: { ...state.counts, [count.id]: count } })),
    clearCounts: () => set({ counts: {} }),
  }));
}
