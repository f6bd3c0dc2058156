import { describe, expect, it } from 'vitest';
import { createFlashStore, visibleNotices } from '../../src-renderer/stores/flash.ts';

describe('flash notices', () => {
  it('shows a notice on its path and removes it after the user moves on', () => {
    const store = createFlashStore();
    store.getState().push({ tone: 'error', text: 'Authentication failed: x', path: '/' });
    // Still on the callback page: not shown there.
    expect(visibleNotices(store.getState().notices, '/auth/callback')).toHaveLength(0);
    store.getState().markShown('/auth/callback');
    expect(store.getState().notices[0]?.shownOn).toBeNull();
    // Home: shown.
    store.getState().pathChanged('/');
    expect(visibleNotices(store.getState().notices, '/')).toHaveLength(1);
    store.getState().markShown('/');
    // Next navigation removes it.
    store.getState().pathChanged('/petitions');
    expect(store.getState().notices).toHaveLength(0);
  });

  it('does not repeat the same text and can be dismissed', () => {
    const store = createFlashStore();
    store.getState().push({ tone: 'success', text: 'Done' });
    const id = store.getState().push({ tone: 'success', text: 'Done' });
    expect(store.getState().notices).toHaveLength(1);
    store.getState().dismiss(id);
    expect(store.getState().notices).toHaveLength(0);
  });
});
