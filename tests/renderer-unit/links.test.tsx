/**
 * The app's own Link and NavLink (src-renderer/components/Link.tsx, on react-router's link hooks): real
 * hrefs, the current page marked in the main navigation, and which paths count as current.
 */
import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { Link, NavLink, isCurrentPath } from '../../src-renderer/components/Link.tsx';

const at = (path: string, node: React.ReactNode) => renderToString(<MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>);

describe('links', () => {
  it('renders an anchor with the path as its href, query and fragment kept', () => {
    const html = at('/', <Link to="/notifications#preferences" className="link-strong">Preferences</Link>);
    expect(html).toContain('href="/notifications#preferences"');
    expect(html).toContain('class="link-strong"');
    expect(at('/', <Link to="/petitions?term=2">Term</Link>)).toContain('href="/petitions?term=2"');
  });

  it('marks the current page in the navigation, and only it', () => {
    const nav = (
      <>
        <NavLink to="/" end>Home</NavLink>
        <NavLink to="/petitions" end>All petitions</NavLink>
        <NavLink to="/create-petition">Start a petition</NavLink>
      </>
    );
    const onList = at('/petitions', nav);
    expect(onList.match(/aria-current="page"/g)).toHaveLength(1);
    expect(onList).toMatch(/<a[^>]*class="active"[^>]*aria-current="page"[^>]*>All petitions</);
    expect(at('/', nav)).toMatch(/<a[^>]*aria-current="page"[^>]*>Home</);
    // "end": the list is not current on a path below it; without "end" a page stays current below its path.
    expect(at('/petitions/term/3', nav)).not.toContain('aria-current');
    expect(at('/create-petition/step', nav)).toMatch(/aria-current="page"[^>]*>Start a petition</);
  });

  it('matches paths as the routes do: case-insensitive, whole segments', () => {
    expect(isCurrentPath('/Petitions', '/petitions', true)).toBe(true);
    expect(isCurrentPath('/petitions/term/1', '/petitions', true)).toBe(false);
    expect(isCurrentPath('/petitions/term/1', '/petitions', false)).toBe(true);
    expect(isCurrentPath('/petitionsx', '/petitions', false)).toBe(false);
    expect(isCurrentPath('/anything', '/', false)).toBe(true);
    expect(isCurrentPath('/anything', '/', true)).toBe(false);
  });
});
