/**
 * The live stream as pages see it: the signature counts it pushed, and whether it is connected (pages poll
 * for themselves only while it is not).
 *
 *   useLiveStream((s) => s.counts[petitionId])   // PetitionCount | undefined
 *   useLiveStream((s) => s.connected)
 */
import { create } from 'zustand';
import type { PetitionCount } from '../../src-shared/domain/schemas.ts';

export interface LiveStreamState {
  connected: boolean;
  counts: Record<number, PetitionCount>;
  setConnected(connected: boolean): void;
  setCount(count: PetitionCount): void;
  /** Forgets the counts (another petition is watched now: an old count must not overwrite a fresh page). */
  clearCounts(): void;
}

export function createLiveStreamStore() {
  return create<LiveStreamState>()((set) => ({
    connected: false,
    counts: {},
    setConnected: (connected) => set({ connected }),
    setCount: (count) => set((state) => ({ counts: { ...state.counts, [count.id]: count } })),
    clearCounts: () => set({ counts: {} }),
  }));
}
