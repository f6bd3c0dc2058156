/**
 * Site-wide state from the server: maintenance mode, whether Parliament is in session, and the
 * parliamentary terms (polled every 30 s: docs/rules.md#timings). Nothing here is kept in browser storage.
 *
 * API:
 *   useSite((s) => s.maintenance)   // boolean
 *   useSite((s) => s.inSession)     // boolean | null (null until the first check answers)
 *   useSite((s) => s.terms)         // Term[]
 *   useSite.getState().refresh()    // re-read site status and terms now
 *   useSite.getState().applyStatus(status)   // a status pushed by the live stream
 *   selectCurrentTerm(state)        // the current Term or null
 */
import { create } from 'zustand';
import type { SiteStatus, Term } from '../../src-shared/domain/schemas.ts';
import type { ApiClient } from '../../src-shared/api/client.ts';
import { currentTerm, isInSession } from '../../src-shared/rules/terms.ts';

export interface SiteState {
  maintenance: boolean;
  /** null while the first term check is loading ('Checking Parliament Status...'). */
  inSession: boolean | null;
  terms: Term[];
  termsLoaded: boolean;
  refresh(): Promise<void>;
  refreshTerms(): Promise<void>;
  refreshStatus(): Promise<void>;
  setMaintenance(on: boolean): void;
  /** A status from the server (a reply or the live stream); a change of "in session" reloads the terms. */
  applyStatus(status: SiteStatus): void;
}

export type SiteApi = Pick<ApiClient, 'getSiteStatus' | 'listTerms'>;

export function createSiteStore(api: SiteApi, now: () => Date = () => new Date()) {
  return create<SiteState>()((set, get) => {
    /** The server's answer wins; the term list decides only when site-status could not be read. */
    let serverInSession: boolean | null = null;

    function settleInSession(): void {
      const { terms, termsLoaded } = get();
      if (serverInSession !== null) set({ inSession: serverInSession });
      else if (termsLoaded) set({ inSession: isInSession(terms, now()) });
    }

    return {
      maintenance: false,
      inSession: null,
      terms: [],
      termsLoaded: false,
      async refresh() {
        await Promise.all([get().refreshStatus(), get().refreshTerms()]);
      },
      async refreshTerms() {
        try {
          const terms = await api.listTerms();
          set({ terms: Array.isArray(terms) ? terms : [], termsLoaded: true });
        } catch {
          // A failure to load terms is treated as not in session, unless the server said otherwise
          // (docs/statuses.md#term-status).
          set({ termsLoaded: true, terms: get().terms });
          if (serverInSession === null) {
            set({ inSession: false });
            return;
          }
        }
        settleInSession();
      },
      async refreshStatus() {
        try {
          get().applyStatus(await api.getSiteStatus());
        } catch {
          serverInSession = null;
          settleInSession();
        }
      },
      applyStatus(status) {
        const before = serverInSession;
        serverInSession = status.inSession;
        if (get().maintenance !== status.maintenance) set({ maintenance: status.maintenance });
        settleInSession();
        // A term began or ended: the pages that name the current term need the list again.
        if (before !== null && before !== status.inSession) void get().refreshTerms();
      },
      setMaintenance(on) {
        set({ maintenance: on });
      },
    };
  });
}

export type SiteStore = ReturnType<typeof createSiteStore>;

export function selectCurrentTerm(state: Pick<SiteState, 'terms'>, now: Date = new Date()): Term | null {
  return currentTerm(state.terms, now);
}

export function termName(terms: readonly Term[], termId: number | null | undefined): string | null {
  if (termId === null || termId === undefined) return null;
  return terms.find((t) => t.id === termId)?.name ?? null;
}
