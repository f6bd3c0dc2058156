/**
 * Navigation: the screen shown, the way back, the open overlay, each queue's selected petition and
 * the unsent drafts.
 */
import { create } from 'zustand';
import type { ModerationDecision } from '../../../src-shared/domain/moderation-constants.ts';
import type { FormMode, QueueKind } from '../queues.ts';

/** The control a moderation case screen puts focus on: a decision, or banning the creator. */
export type CaseControl = ModerationDecision | 'ban';

export type AdminSection = 'terms' | 'assign' | 'maintenance' | 'bans' | 'status' | 'integrity' | 'audit' | 'statistics';

export type Screen =
  | { name: 'queue'; kind: QueueKind }
  | { name: 'petition'; id: number; mode: FormMode | null; from: QueueKind | null }
  | { name: 'moderation' }
  | { name: 'moderationCase'; id: number; control: CaseControl | null }
  | { name: 'bulk' }
  | { name: 'admin'; section: AdminSection }
  | { name: 'home' };

/** The same screen with the same parameters (history and focus need not change). */
export function isSameScreen(a: Screen, b: Screen): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}

export type Overlay = 'outbox' | 'palette' | 'shortcuts' | null;

export interface NavState {
  screen: Screen;
  history: Screen[];
  overlay: Overlay;
  /** The selected petition of each queue, so coming back lands on it. */
  selected: Partial<Record<QueueKind, number>>;
  /** Unsent drafts by `${petitionId}:${mode}`, so Esc or a jump never loses typing. */
  drafts: Record<string, unknown>;
  go(screen: Screen): void;
  back(): void;
  open(overlay: Overlay): void;
  select(kind: QueueKind, id: number): void;
  setDraft(key: string, draft: unknown): void;
  clearDraft(key: string): void;
}

export function createNavStore(initial: Screen = { name: 'home' }) {
  return create<NavState>()((set, get) => ({
    screen: initial,
    history: [],
    overlay: null,
    selected: {},
    drafts: {},
    go(screen) {
      set({ history: [...get().history.slice(-20), get().screen], screen, overlay: null });
    },
    back() {
      const { screen, history } = get();
      // Back from a petition goes to the queue it came from (a case to the moderation queue), wherever the history wandered.
      if (screen.name === 'petition' && screen.from) {
        set({ screen: { name: 'queue', kind: screen.from }, history: history.slice(0, -1) });
        return;
      }
      if (screen.name === 'moderationCase') {
        set({ screen: { name: 'moderation' }, history: history.slice(0, -1) });
        return;
      }
      const previous = history.at(-1);
      if (previous) set({ screen: previous, history: history.slice(0, -1) });
    },
    open(overlay) {
      set({ overlay });
    },
    select(kind, id) {
      set({ selected: { ...get().selected, [kind]: id } });
    },
    setDraft(key, draft) {
      set({ drafts: { ...get().drafts, [key]: draft } });
    },
    clearDraft(key) {
      const drafts = { ...get().drafts };
      delete drafts[key];
      set({ drafts });
    },
  }));
}
