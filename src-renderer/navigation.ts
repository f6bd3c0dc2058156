/**
 * The app's navigation hooks: `useNavigate`, `useSearchParams` and a link's click handler, on the router
 * react-router's `<BrowserRouter>` (the web app) or `<MemoryRouter>` (the console's staff screens) provides.
 *
 * react-router's own hooks resolve every target against the matched route tree (relative paths, `..`,
 * basenames) and pick the data routers' navigation when one is mounted; this app has no route tree (App.tsx
 * matches a flat list of pages, src-renderer/routeMatch.ts), no basename and no data router, and navigates
 * only to app paths written whole (`/petition/12`, `/petitions?term=3`). That resolution was most of the
 * 3.3 KB gzip react-router added to every page's first download (docs/operations.md#javascript-weight).
 * These hooks hand the path to the router's own history (its `navigator`, from react-router's navigation
 * context), which parses it, pushes or replaces the entry and lets `<BrowserRouter>` render the new location
 * as it does for react-router's hooks. `useLocation` stays react-router's. ESLint sends imports of
 * react-router's versions here.
 */
import { useCallback, useContext, useMemo } from 'react';
import type { MouseEvent } from 'react';
import { UNSAFE_NavigationContext, useLocation } from 'react-router-dom';
import { isSafeReturnPath } from './platform/return-path.ts';

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  state?: unknown;
}

/** Goes to an app path (`/petitions?search=x`), as react-router's `navigate(path)` does with a whole path. */
export type Navigate = (to: string, options?: NavigateOptions) => void;

export function useNavigate(): Navigate {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  return useCallback(
    (to, { replace = false, state }: NavigateOptions = {}) => {
      // As react-router refuses to navigate off the site: a path from elsewhere (a return address) could be `//host`.
      if (!isSafeReturnPath(to)) throw new Error(`Not an app path: ${to}`);
      if (replace) navigator.replace(to, state);
      else navigator.push(to, state);
    },
    [navigator],
  );
}

export type SetSearchParams = (next: URLSearchParams | Record<string, string>, options?: NavigateOptions) => void;

/** The address's query, and a setter that navigates to the same path with a new one (react-router's `useSearchParams`). */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback<SetSearchParams>(
    (next, options) => {
      const query = new URLSearchParams(next).toString();
      navigate(query ? `${pathname}?${query}` : pathname, options);
    },
    [navigate, pathname],
  );
  return [params, setParams];
}

/**
 * A link's click as a client-side navigation, as react-router's `useLinkClickHandler`: only a plain
 * primary-button click on a link that opens in this window; a link to the address already shown replaces
 * its entry rather than adding the same one again.
 */
export function useLinkClickHandler(to: string, { replace, target }: { replace?: boolean; target?: string } = {}) {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const here = `${pathname}${search}${hash}`;
  return useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || (target && target !== '_self') || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(to, { replace: replace ?? here === to });
    },
    [navigate, to, replace, target, here],
  );
}
