/**
 * The app's route matching, as react-router's matches a route's path: case-insensitive, trailing slashes
 * ignored, each `:name` one segment, the path's segments decoded first (a `%2F` in one stays within it).
 * App.tsx matches its flat list of pages with this rather than with react-router's <Routes>/useRoutes, whose
 * route ranking, nested outlets and data-router error screens this app does not use: about 3 KB gzip of every
 * page's first download (docs/operations.md#javascript-weight).
 */

/** The path's segments decoded, as react-router decodes them before matching; the path as it is when one cannot be. */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

/** A matcher for one route path (`/petition/:id`): the path's parameters when a pathname is that route, else null. */
export function routeMatcher(path: string): (pathname: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = path.replace(/\/+$/, '').replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const regex = new RegExp(`^${source}/*$`, 'i');
  return (pathname) => {
    const match = regex.exec(decodePath(pathname));
    if (!match) return null;
    return Object.fromEntries(names.map((name, index) => [name, match[index + 1]!.replace(/%2F/g, '/')]));
  };
}
