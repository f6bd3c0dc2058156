/**
 * On every route change: scroll to the top and move keyboard and screen-reader focus to the
 * new page's main heading, so the change is announced (WCAG 2.4.3). The first page load keeps the
 * browser's own focus. Pages that are still loading get their heading focused when it appears.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

const FOCUS_WAIT_MS = 3_000;

export function focusMainHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
  return true;
}

export function useRouteChangeEffects(): void {
  const { pathname } = useLocation();
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return undefined;
    }
    window.scrollTo(0, 0);
    if (focusMainHeading()) return undefined;
    // The page is still loading: wait for its heading, briefly.
    const main = document.querySelector('main');
    if (!main) return undefined;
    const observer = new MutationObserver(() => {
      if (focusMainHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = window.setTimeout(() => observer.disconnect(), FOCUS_WAIT_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [pathname]);
}
