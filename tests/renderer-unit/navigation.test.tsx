/**
 * The app's navigation hooks (src-renderer/navigation.ts) on react-router's own router and history: they
 * push and replace entries of the router's history as react-router's hooks do for a whole app path, keep
 * the query in the address, and refuse a path that would leave the site.
 */
import { describe, expect, it } from 'vitest';
import type { MouseEvent } from 'react';
import { renderToString } from 'react-dom/server';
import { Router, UNSAFE_createMemoryHistory } from 'react-router-dom';
import { useLinkClickHandler, useNavigate, useSearchParams } from '../../src-renderer/navigation.ts';
import type { Navigate, SetSearchParams } from '../../src-renderer/navigation.ts';

/** A real memory history at `path`, and what the hooks return when rendered on it. */
function mount(path: string) {
  const history = UNSAFE_createMemoryHistory({ initialEntries: [path] });
  const got: { navigate?: Navigate; params?: URLSearchParams; setParams?: SetSearchParams; click?: (event: MouseEvent<HTMLAnchorElement>) => void } = {};
  function Probe({ to }: { to: string }) {
    got.navigate = useNavigate();
    [got.params, got.setParams] = useSearchParams();
    got.click = useLinkClickHandler(to);
    return null;
  }
  const render = (to: string) =>
    renderToString(
      <Router navigator={history} location={history.location}>
        <Probe to={to} />
      </Router>,
    );
  return { history, got, render };
}

const click = (init: Partial<MouseEvent<HTMLAnchorElement>>) => {
  const event = { button: 0, metaKey: false, altKey: false, ctrlKey: false, shiftKey: false, prevented: false, ...init } as MouseEvent<HTMLAnchorElement> & { prevented: boolean };
  event.preventDefault = () => {
    event.prevented = true;
  };
  return event;
};

describe('navigation', () => {
  it('pushes an app path with its query onto the router history, or replaces the entry', () => {
    const { history, got, render } = mount('/');
    render('/petitions');
    got.navigate!('/petitions?search=cars#top', { state: { from: 'test' } });
    expect(history.index).toBe(1);
    expect(history.location).toMatchObject({ pathname: '/petitions', search: '?search=cars', hash: '#top', state: { from: 'test' } });
    got.navigate!('/petition/3', { replace: true });
    expect(history.index).toBe(1);
    expect(history.location.pathname).toBe('/petition/3');
  });

  it('refuses a path that leaves the site', () => {
    const { history, got, render } = mount('/');
    render('/');
    for (const away of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'petitions']) {
      expect(() => got.navigate!(away), away).toThrow(/Not an app path/);
    }
    expect(history.index).toBe(0);
  });

  it('reads the query and sets a new one on the same path', () => {
    const { history, got, render } = mount('/petitions?status=open&page=2#list');
    render('/');
    expect(got.params!.get('status')).toBe('open');
    expect(got.params!.get('page')).toBe('2');
    got.setParams!({ status: 'closed', tag: 'Budget' });
    expect(history.location).toMatchObject({ pathname: '/petitions', search: '?status=closed&tag=Budget', hash: '' });
    expect(history.index).toBe(1);
    got.setParams!(new URLSearchParams(), { replace: true });
    expect(history.location).toMatchObject({ pathname: '/petitions', search: '' });
    expect(history.index).toBe(1);
  });

  it('turns a plain click into a navigation, replacing the entry when the link is the address shown', () => {
    const { history, got, render } = mount('/petitions?page=2');
    render('/petition/7');
    const plain = click({});
    got.click!(plain);
    expect(plain.prevented).toBe(true);
    expect(history.location.pathname).toBe('/petition/7');
    expect(history.index).toBe(1);

    // Modified clicks and other buttons are the browser's (new tab, new window, download).
    for (const modified of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      const event = click(modified);
      got.click!(event);
      expect(event.prevented, JSON.stringify(modified)).toBe(false);
    }
    expect(history.index).toBe(1);

    const same = mount('/petitions?page=2');
    same.render('/petitions?page=2');
    same.got.click!(click({}));
    expect(same.history.index).toBe(0);
    expect(same.history.location.search).toBe('?page=2');
  });
});
