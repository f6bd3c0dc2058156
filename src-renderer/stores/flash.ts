/**
 * Page-level notices that outlive a navigation (e.g. an OAuth error shown after the redirect home,
 * 'Petition deleted successfully' after leaving a deleted petition). They replace the old alerts.
 *
 * API:
 *   useFlash.getState().push({ tone: 'error', text, path: '/' })  // path: where to show it (default: any page)
 *   useFlash.getState().dismiss(id)
 * A notice is removed once it has been shown and the user moves to another path.
 */
import { create } from 'zustand';

export type FlashTone = 'success' | 'error' | 'info';

export interface FlashNotice {
  id: number;
  tone: FlashTone;
  text: string;
  /** Only shown on this path; null shows it on whichever page comes next. */
  path: string | null;
  /** Path where it was first shown; leaving that path removes it. */
  shownOn: string | null;
}

export interface FlashState {
  notices: FlashNotice[];
  push(notice: { tone: FlashTone; text: string; path?: string | null }): number;
  dismiss(id: number): void;
  markShown(pathname: string): void;
  pathChanged(pathname: string): void;
}

let nextId = 1;

export function createFlashStore() {
  return create<FlashState>()((set, get) => ({
    notices: [],
    push({ tone, text, path = null }) {
      const id = nextId++;
      // The same text twice in a row (e.g. two failed clicks) is shown once.
      const rest = get().notices.filter((n) => n.text !== text);
      set({ notices: [...rest, { id, tone, text, path, shownOn: null }] });
      return id;
    },
    dismiss(id) {
      set({ notices: get().notices.filter((n) => n.id !== id) });
    },
    markShown(pathname) {
      let changed = false;
      const notices = get().notices.map((n) => {
        if (n.shownOn === null && (n.path === null || n.path === pathname)) {
          changed = true;
          return { ...n, shownOn: pathname };
        }
        return n;
      });
      if (changed) set({ notices });
    },
    pathChanged(pathname) {
      const notices = get().notices.filter((n) => n.shownOn === null || n.shownOn === pathname);
      if (notices.length !== get().notices.length) set({ notices });
    },
  }));
}

export function visibleNotices(notices: readonly FlashNotice[], pathname: string): FlashNotice[] {
  return notices.filter((n) => n.path === null || n.path === pathname);
}

export type FlashStore = ReturnType<typeof createFlashStore>;
