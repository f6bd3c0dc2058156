/** Toasts: short notices that dismiss themselves after TOAST_MS. */
import { create } from 'zustand';

export interface Toast {
  id: number;
  tone: 'success' | 'info' | 'error';
  text: string;
}

export interface ToastState {
  toasts: Toast[];
  push(tone: Toast['tone'], text: string): void;
  dismiss(id: number): void;
}

export const TOAST_MS = 6_000;

export function createToastStore(setTimer: (fn: () => void, ms: number) => unknown = setTimeout) {
  let next = 1;
  return create<ToastState>()((set, get) => ({
    toasts: [],
    push(tone, text) {
      const id = next++;
      // At most four on screen: the oldest gives way.
      set({ toasts: [...get().toasts.slice(-3), { id, tone, text }] });
      setTimer(() => get().dismiss(id), TOAST_MS);
    },
    dismiss(id) {
      set({ toasts: get().toasts.filter((t) => t.id !== id) });
    },
  }));
}
