/**
 * The app's links, on the app's navigation (src-renderer/navigation.ts) and react-router's `useLocation`.
 *
 * react-router-dom's `<Link>` and `<NavLink>` also carry route prefetching, lazy route discovery, view
 * transitions and relative-path options, which this app does not use; they were about 2.5 KB gzip of every
 * page's first download (docs/operations.md#javascript-weight). These two do what the app needs: a real
 * `<a href>` that a click turns into a client-side navigation (modified clicks, other targets and a
 * handler's `preventDefault` are left to the browser, as react-router does), and for the main navigation
 * the current page marked with `aria-current="page"` and the `active` class. ESLint sends imports of
 * `Link`/`NavLink` from react-router-dom here.
 */
import type { AnchorHTMLAttributes, FocusEvent, MouseEvent, Ref, TouchEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { useLinkClickHandler } from '../navigation.ts';

let prefetchPage: (pathname: string) => void = () => undefined;

/** What starts loading the chunk of the page at a path (the web app's routeModules.ts prefetchRoute). */
export function setLinkPrefetcher(prefetch: (pathname: string) => void): void {
  prefetchPage = prefetch;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An app path, with an optional query and fragment: `/petition/12`, `/notifications#preferences`. */
  to: string;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

export function Link({ to, replace, onClick, onMouseEnter, onFocus, onTouchStart, target, ...rest }: LinkProps) {
  const navigate = useLinkClickHandler(to, { replace, target });
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  const prefetch = () => prefetchPage(to.split(/[?#]/)[0]!);
  return (
    <a
      {...rest}
      // An app path is its own href: the app has no basename and no relative links.
      href={to}
      target={target}
      onClick={handleClick}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        onMouseEnter?.(event);
        prefetch();
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        onFocus?.(event);
        prefetch();
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        onTouchStart?.(event);
        prefetch();
      }}
    />
  );
}

export interface NavLinkProps extends LinkProps {
  /** Current only on this very path, not on the paths below it (`/petitions` but not `/petitions/x`). */
  end?: boolean;
}

/** Whether `to` is the page shown: the same path, or (without `end`) a path below it. Case-insensitive, as routes are. */
export function isCurrentPath(pathname: string, to: string, end: boolean): boolean {
  const current = pathname.toLowerCase();
  const target = to.toLowerCase();
  if (current === target) return true;
  if (end) return false;
  return current.startsWith(target.endsWith('/') ? target : `${target}/`);
}

export function NavLink({ end = false, className, ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  const current = isCurrentPath(pathname, rest.to, end);
  const classes = [className, current ? 'active' : undefined].filter(Boolean).join(' ') || undefined;
  return <Link {...rest} className={classes} aria-current={current ? 'page' : undefined} />;
}
