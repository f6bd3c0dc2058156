/**
 * Shortcuts that work on every screen. Typing in a field is never hijacked: only Ctrl/Cmd+K and
 * Escape reach through form fields (Ctrl+Enter is the forms' own). The single keys go through
 * useShortcutKeys (consumed at keydown); queue, petition and case keys (j/k, Enter, r, d; Space to
 * mark a case; k, h, x, r, b on a case) belong to those screens.
 */
import { useEffect } from 'react';
import { syncNow } from './actions.ts';
import { navigationQueues } from './queues.ts';
import { useShortcutKeys } from './shortcutKeys.ts';
import { useStores } from './state/context.tsx';
import { useUser } from './state/selectors.ts';

/** Screens Escape leaves (back to where the member came from). */
const ESCAPABLE = new Set(['petition', 'moderationCase', 'admin', 'bulk']);

export function useGlobalKeys(): void {
  const stores = useStores();
  const user = useUser();
  const queues = navigationQueues(user);
  const nav = stores.nav.getState();
  const goToQueue = (index: number) => {
    const queue = queues[index];
    return queue ? () => nav.go(queue) : false;
  };
  useShortcutKeys({
    '?': () => nav.open('shortcuts'),
    o: () => nav.open('outbox'),
    s: () => void syncNow(stores),
    '1': goToQueue(0),
    '2': goToQueue(1),
    '3': goToQueue(2),
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const nav = stores.nav.getState();
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        nav.open(nav.overlay === 'palette' ? null : 'palette');
        return;
      }
      // Open panels handle their own keys (Escape closes them through the dialog).
      if (nav.overlay || event.defaultPrevented) return;
      if (event.key === 'Escape' && ESCAPABLE.has(nav.screen.name)) {
        event.preventDefault();
        nav.back();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stores]);
}
