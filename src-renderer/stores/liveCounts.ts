/**
 * Signature counts pushed by the live stream, and whether the stream is connected (pages poll
 * for themselves only while it is not).
 *
 *   useLiveCounts((s) => s.counts[petitionId])   // PetitionCount | undefined
 *   useLiveCounts((s) => s.connected)
 */
import { create } from 'zustand';
import type { PetitionCount } from '../../src-shared/domain/schemas.ts';

export interface LiveCountsState {
  connected: boolean;
  counts: Record<number, PetitionCount>;
  setConnected(connected: boolean): void;
  setCount(count: PetitionCount): void;
  /** Forgets the counts (another petition is watched now: an old count must not overwrite a fresh page). */
  clearCounts(): void;
}

export function createLiveCountsStore() {
  return create<LiveCountsState>()((set) => ({
    connected: false,
    counts: {},
    setConnected: (connected) => set({ connected }),
    setCount: (count) => set((state) => ({ counts: { ...state.counts, [count.id]: count } })),
    clearCounts: () => set({ counts: {} }),
  }));
}
