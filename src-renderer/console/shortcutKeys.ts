/**
 * The console's single-key shortcuts (j, k, r, d, 1, 2, s, o, ?), in one place. A shortcut is
 * handled on the window in the capture phase, before any other handler and before the browser
 * acts on the key, and a handled key is consumed there (preventDefault at keydown: no keypress,
 * no character): a shortcut that moves focus into a field can never type its own letter into it.
 * Keys typed in a field, with Ctrl/Cmd/Alt, while composing, or while a panel is open are never
 * shortcuts.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useStores } from './state/context.tsx';

/** key (KeyboardEvent.key) → what it does; a missing or false entry leaves the key alone. */
export type ShortcutBindings = Readonly<Record<string, (() => void) | false | null | undefined>>;

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/** Whether this keydown may be a single-key shortcut at all. */
export function mayBeShortcut(event: KeyboardEvent, panelOpen: boolean): boolean {
  if (event.defaultPrevented || panelOpen || event.isComposing) return false;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  return !isTypingTarget(event.target);
}

/**
 * Binds single-key shortcuts while the calling component is mounted. The bindings may change on
 * every render (they close over the screen's current state); the listener stays the same.
 */
export function useShortcutKeys(bindings: ShortcutBindings): void {
  const { nav } = useStores();
  const latest = useRef(bindings);
  useLayoutEffect(() => {
    latest.current = bindings;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!mayBeShortcut(event, nav.getState().overlay !== null)) return;
      const run = latest.current[event.key];
      if (!run) return;
      event.preventDefault();
      event.stopPropagation();
      run();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [nav]);
}
