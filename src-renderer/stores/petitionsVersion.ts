/**
 * A counter that lists and detail pages include in their load effects: bumping it reloads them.
 * The app bumps it on the 'petitionsUpdated' window event and when the expiry check closes
 * petitions. Staff screens can fire the event: window.dispatchEvent(new Event('petitionsUpdated')).
 */
import { create } from 'zustand';

export const PETITIONS_UPDATED_EVENT = 'petitionsUpdated';
export const NAVIGATE_HOME_EVENT = 'navigate-home';

export interface PetitionsVersionState {
  version: number;
  bump(): void;
}

export const usePetitionsVersion = create<PetitionsVersionState>()((set, get) => ({
  version: 0,
  bump() {
    set({ version: get().version + 1 });
  },
}));

/** Tells every open list and page that petitions changed. */
export function announcePetitionsUpdated(): void {
  window.dispatchEvent(new Event(PETITIONS_UPDATED_EVENT));
}
