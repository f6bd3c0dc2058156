import { describe, expect, it, vi } from 'vitest';
import { createSiteStore, selectCurrentTerm, termName } from '../../src-renderer/stores/site.ts';
import type { SiteApi } from '../../src-renderer/stores/site.ts';
import type { Term } from '../../src-shared/domain/schemas.ts';

const terms: Term[] = [
  { id: 1, name: 'Term 86', startDate: '2026-01-01', endDate: '2026-06-30', status: 'completed', statusOverride: 'completed' },
  { id: 2, name: 'Term 87', startDate: '2026-07-01', endDate: '2026-12-31', status: 'current', statusOverride: null },
];
const now = () => new Date('2026-11-21T12:00:00Z');

function api(overrides: Partial<SiteApi> = {}): SiteApi {
  return {
    getSiteStatus: vi.fn(async () => ({ maintenance: false, inSession: true })),
    listTerms: vi.fn(async () => terms),
    ...overrides,
  };
}
const fail = async (): Promise<never> => {
  throw new Error('down');
};

describe('site store', () => {
  it('starts unknown, then takes the server answer', async () => {
    const store = createSiteStore(api(), now);
    expect(store.getState().inSession).toBeNull();
    await store.getState().refresh();
    expect(store.getState()).toMatchObject({ inSession: true, maintenance: false, termsLoaded: true });
    expect(selectCurrentTerm(store.getState(), now())?.name).toBe('Term 87');
    expect(termName(store.getState().terms, 1)).toBe('Term 86');
    expect(termName(store.getState().terms, 99)).toBeNull();
  });

  it('shows maintenance when the server says so', async () => {
    const store = createSiteStore(api({ getSiteStatus: vi.fn(async () => ({ maintenance: true, inSession: false })) }), now);
    await store.getState().refresh();
    expect(store.getState()).toMatchObject({ maintenance: true, inSession: false });
  });

  it('falls back to the terms when site-status fails', async () => {
    const store = createSiteStore(api({ getSiteStatus: fail }), now);
    await store.getState().refresh();
    expect(store.getState().inSession).toBe(true);
  });

  it('treats a failure of both as not in session', async () => {
    const store = createSiteStore(api({ getSiteStatus: fail, listTerms: fail }), now);
    await store.getState().refresh();
    expect(store.getState().inSession).toBe(false);
  });

  it('setMaintenance switches the screen without a call', () => {
    const store = createSiteStore(api(), now);
    store.getState().setMaintenance(true);
    expect(store.getState().maintenance).toBe(true);
  });
});
