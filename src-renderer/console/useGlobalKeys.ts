/**
 * Shortcuts that work on every screen. Typing in a field is never hijacked: only Ctrl/Cmd+K and
 * Escape reach through form fields (Ctrl+Enter is the forms' own). Queue and petition keys
 * (j/k, Enter, r, d) belong to those screens.
 */
import { useEffect } from 'react';
import { syncNow } from './actions.ts';
import { visibleQueues } from './queues.ts';
import { useStores } from './state/context.tsx';

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

export function useGlobalKeys(): void {
  const stores = useStores();
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
      if (event.key === 'Escape') {
        if (nav.screen.name === 'petition' || nav.screen.name === 'admin' || nav.screen.name === 'bulk') {
          event.preventDefault();
          nav.back();
        }
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      const user = stores.session.getState().session?.user ?? null;
      const queues = visibleQueues(user);
      switch (event.key) {
        case '?':
          event.preventDefault();
          nav.open('shortcuts');
          break;
        case 'o':
          event.preventDefault();
          nav.open('outbox');
          break;
        case 's':
          event.preventDefault();
          void syncNow(stores);
          break;
        case '1':
        case '2': {
          const kind = queues[Number(event.key) - 1];
          if (kind) {
            event.preventDefault();
            nav.go({ name: 'queue', kind });
          }
          break;
        }
        default:
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stores]);
}
