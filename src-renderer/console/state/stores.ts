/**
 * The console's state, one zustand store per concern, all fed by the ConsoleApi (never by fetch):
 * the session and connection, the outbox, the queues and petitions read through `data:read`,
 * navigation and toasts. `createConsoleStores(api)` builds them; tests pass a ConsoleApi double.
 */
import { create } from 'zustand';
import type { ConsoleApi, ConsoleSession } from '../../../src-shared/console/ipc-contract.ts';
import type { OutboxEntry, OutboxState, OutboxSummary } from '../../../src-shared/console/outbox.ts';
import type { StaffActionInput } from '../../../src-shared/console/staff-actions.ts';
import { PAGE_SIZE_MAX } from '../../../src-shared/domain/constants.ts';
import type { Petition, PetitionDetail, PetitionList, Term } from '../../../src-shared/domain/schemas.ts';
import { call, errorMessage } from '../consoleApi.ts';
import { DEFAULT_FILTERS, QUEUES } from '../queues.ts';
import type { FormMode, QueueFilters, QueueKind } from '../queues.ts';

// ---------- session ----------

export interface SessionState {
  session: ConsoleSession | null;
  busy: boolean;
  error: string | null;
  load(): Promise<void>;
  signIn(): Promise<void>;
  signOut(discardQueued?: boolean): Promise<void>;
}

export function createSessionStore(api: ConsoleApi, initial: ConsoleSession | null = null) {
  const store = create<SessionState>()((set) => ({
    session: initial,
    busy: false,
    error: null,
    async load() {
      try {
        set({ session: await call(api, 'session:get', {}), error: null });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async signIn() {
      set({ busy: true, error: null });
      try {
        set({ session: await call(api, 'session:signIn', {}) });
      } catch (error) {
        set({ error: errorMessage(error) });
      } finally {
        set({ busy: false });
      }
    },
    async signOut(discardQueued = false) {
      set({ busy: true, error: null });
      try {
        set({ session: await call(api, 'session:signOut', { discardQueued }) });
      } catch (error) {
        set({ error: errorMessage(error) });
      } finally {
        set({ busy: false });
      }
    },
  }));
  api.on('session:changed', (session) => store.setState({ session }));
  return store;
}

// ---------- outbox ----------

export interface OutboxTransition {
  entry: OutboxEntry;
  from: OutboxState | null;
}

export interface OutboxStoreState {
  entries: OutboxEntry[];
  summary: OutboxSummary;
  loaded: boolean;
  refresh(): Promise<void>;
  enqueue(actions: StaffActionInput[], batch?: boolean): Promise<OutboxEntry[]>;
  retry(id: string): Promise<void>;
  discard(id: string): Promise<void>;
  resubmit(id: string, action: StaffActionInput): Promise<void>;
  syncNow(): Promise<void>;
  /** Called with every change of state seen between two refreshes (toasts, queue reloads, notifications). */
  onTransitions(listener: (changes: OutboxTransition[]) => void): () => void;
}

const EMPTY_SUMMARY: OutboxSummary = { queued: 0, sending: 0, attention: 0 };

export function createOutboxStore(api: ConsoleApi) {
  const listeners = new Set<(changes: OutboxTransition[]) => void>();
  let inFlight: Promise<void> | null = null;
  let again = false;

  const store = create<OutboxStoreState>()((set, get) => {
    const apply = (entries: OutboxEntry[], summary: OutboxSummary) => {
      const before = new Map(get().entries.map((e) => [e.id, e.state]));
      const changes: OutboxTransition[] = [];
      for (const entry of entries) {
        const from = before.get(entry.id) ?? null;
        if (from !== entry.state && get().loaded) changes.push({ entry, from });
      }
      set({ entries, summary, loaded: true });
      if (changes.length) for (const listener of listeners) listener(changes);
    };

    /** Coalesces bursts of outbox:changed into at most one list call in flight and one after it. */
    const refresh = (): Promise<void> => {
      if (inFlight) {
        again = true;
        return inFlight;
      }
      inFlight = (async () => {
        try {
          do {
            again = false;
            const { entries, summary } = await call(api, 'outbox:list', { limit: 2000 });
            apply(entries, summary);
          } while (again);
        } finally {
          inFlight = null;
        }
      })();
      return inFlight;
    };

    return {
      entries: [],
      summary: EMPTY_SUMMARY,
      loaded: false,
      refresh,
      async enqueue(actions, batch = false) {
        const { entries } = await call(api, 'outbox:enqueue', { actions, batch });
        await refresh();
        return entries;
      },
      async retry(id) {
        await call(api, 'outbox:retry', { id });
        await refresh();
      },
      async discard(id) {
        await call(api, 'outbox:discard', { id });
        await refresh();
      },
      async resubmit(id, action) {
        await call(api, 'outbox:resubmit', { id, action });
        await refresh();
      },
      async syncNow() {
        set({ summary: await call(api, 'sync:now', {}) });
        await refresh();
      },
      onTransitions(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  });
  api.on('outbox:changed', (summary) => {
    store.setState({ summary });
    void store.getState().refresh().catch(() => undefined);
  });
  return store;
}

// ---------- data read through the cache ----------

export interface Loaded<T> {
  data: T | null;
  fetchedAt: string | null;
  fromCache: boolean;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
}

export const NOT_LOADED: Loaded<never> = { data: null, fetchedAt: null, fromCache: false, status: 'idle', error: null };

export async function readPath<T>(api: ConsoleApi, path: string): Promise<{ data: T; fetchedAt: string; fromCache: boolean }> {
  const read = await call(api, 'data:read', { path });
  return { data: read.data as T, fetchedAt: read.fetchedAt, fromCache: read.fromCache };
}

/** Reads every page of a petition list (the queue's superset from the server), oldest fetch time wins. */
export async function readAllPetitions(
  api: ConsoleApi,
  query: Record<string, string>,
  maxPages = 100,
): Promise<{ data: Petition[]; fetchedAt: string; fromCache: boolean }> {
  const pathFor = (page: number) =>
    `/api/petitions?${new URLSearchParams({ ...query, pageSize: String(PAGE_SIZE_MAX), page: String(page) })}`;
  const first = await readPath<PetitionList>(api, pathFor(1));
  const pages = Math.min(maxPages, Math.ceil(first.data.total / PAGE_SIZE_MAX));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => readPath<PetitionList>(api, pathFor(i + 2))),
  );
  const all = [first, ...rest];
  const fetchedAt = all.map((r) => r.fetchedAt).sort()[0] ?? first.fetchedAt;
  const seen = new Set<number>();
  const data = all.flatMap((r) => r.data.items).filter((p) => !seen.has(p.id) && (seen.add(p.id), true));
  return { data, fetchedAt, fromCache: all.some((r) => r.fromCache) };
}

export interface DataState {
  queues: Record<QueueKind, Loaded<Petition[]>>;
  filters: Record<QueueKind, QueueFilters>;
  terms: Loaded<Term[]>;
  petitions: Record<number, Loaded<PetitionDetail>>;
  /**
   * Queue rows as last read before the latest read, by id: a petition with an action still on its
   * way stays in its queue until the action applies, although the cache already shows it done.
   */
  seen: Record<number, Petition>;
  loadQueue(kind: QueueKind): Promise<void>;
  loadTerms(): Promise<void>;
  loadPetition(id: number): Promise<void>;
  setFilters(kind: QueueKind, patch: Partial<QueueFilters>): void;
  /** The freshest copy of a petition the console holds (its page, else a queue's row). */
  petition(id: number): Petition | null;
}

export function createDataStore(api: ConsoleApi) {
  return create<DataState>()((set, get) => ({
    queues: { response: NOT_LOADED, debate: NOT_LOADED },
    filters: { response: DEFAULT_FILTERS, debate: DEFAULT_FILTERS },
    terms: NOT_LOADED,
    petitions: {},
    seen: {},
    async loadQueue(kind) {
      const current = get().queues[kind];
      set({ queues: { ...get().queues, [kind]: { ...current, status: 'loading', error: null } } });
      try {
        const read = await readAllPetitions(api, { status: QUEUES[kind].statusFilter, sort: 'most_signatures' });
        const seen = { ...get().seen };
        for (const p of get().queues[kind].data ?? []) seen[p.id] = p;
        set({ seen, queues: { ...get().queues, [kind]: { ...read, status: 'ready', error: null } } });
      } catch (error) {
        set({ queues: { ...get().queues, [kind]: { ...get().queues[kind], status: 'error', error: errorMessage(error) } } });
      }
    },
    async loadTerms() {
      try {
        const read = await readPath<Term[]>(api, '/api/parliamentary-terms');
        set({ terms: { ...read, status: 'ready', error: null } });
      } catch (error) {
        set({ terms: { ...get().terms, status: 'error', error: errorMessage(error) } });
      }
    },
    async loadPetition(id) {
      const current = get().petitions[id] ?? NOT_LOADED;
      set({ petitions: { ...get().petitions, [id]: { ...current, status: 'loading', error: null } } });
      try {
        const read = await readPath<PetitionDetail>(api, `/api/petitions/${id}`);
        set({ petitions: { ...get().petitions, [id]: { ...read, status: 'ready', error: null } } });
      } catch (error) {
        set({ petitions: { ...get().petitions, [id]: { ...get().petitions[id]!, status: 'error', error: errorMessage(error) } } });
      }
    },
    setFilters(kind, patch) {
      set({ filters: { ...get().filters, [kind]: { ...get().filters[kind], ...patch } } });
    },
    petition(id) {
      const page = get().petitions[id]?.data;
      const rows = [...(get().queues.response.data ?? []), ...(get().queues.debate.data ?? [])].filter((p) => p.id === id);
      const candidates: Petition[] = [...(page ? [page] : []), ...rows];
      // Whichever copy saw the latest version is the one to act on.
      return candidates.sort((a, b) => b.version - a.version)[0] ?? null;
    },
  }));
}

// ---------- navigation ----------

export type AdminSection = 'terms' | 'assign' | 'maintenance' | 'bans' | 'status' | 'audit';

export type Screen =
  | { name: 'queue'; kind: QueueKind }
  | { name: 'petition'; id: number; mode: FormMode | null; from: QueueKind | null }
  | { name: 'bulk' }
  | { name: 'admin'; section: AdminSection }
  | { name: 'home' };

export type Overlay = 'outbox' | 'palette' | 'shortcuts' | null;

export interface NavState {
  screen: Screen;
  history: Screen[];
  overlay: Overlay;
  /** The selected petition of each queue, so coming back lands on it. */
  selected: Partial<Record<QueueKind, number>>;
  /** Unsent drafts by `${petitionId}:${mode}`, so Esc or a jump never loses typing. */
  drafts: Record<string, unknown>;
  go(screen: Screen): void;
  back(): void;
  open(overlay: Overlay): void;
  select(kind: QueueKind, id: number): void;
  setDraft(key: string, draft: unknown): void;
  clearDraft(key: string): void;
}

export function createNavStore(initial: Screen = { name: 'home' }) {
  return create<NavState>()((set, get) => ({
    screen: initial,
    history: [],
    overlay: null,
    selected: {},
    drafts: {},
    go(screen) {
      set({ history: [...get().history.slice(-20), get().screen], screen, overlay: null });
    },
    back() {
      const { screen, history } = get();
      // Back from a petition goes to the queue it came from, wherever the history wandered.
      if (screen.name === 'petition' && screen.from) {
        set({ screen: { name: 'queue', kind: screen.from }, history: history.slice(0, -1) });
        return;
      }
      const previous = history.at(-1);
      if (previous) set({ screen: previous, history: history.slice(0, -1) });
    },
    open(overlay) {
      set({ overlay });
    },
    select(kind, id) {
      set({ selected: { ...get().selected, [kind]: id } });
    },
    setDraft(key, draft) {
      set({ drafts: { ...get().drafts, [key]: draft } });
    },
    clearDraft(key) {
      const drafts = { ...get().drafts };
      delete drafts[key];
      set({ drafts });
    },
  }));
}

// ---------- toasts ----------

export interface Toast {
  id: number;
  tone: 'success' | 'info' | 'error';
  text: string;
}

export interface ToastState {
  toasts: Toast[];
  push(tone: Toast['tone'], text: string): void;
  dismiss(id: number): void;
}

export const TOAST_MS = 6_000;

export function createToastStore(setTimer: (fn: () => void, ms: number) => unknown = setTimeout) {
  let next = 1;
  return create<ToastState>()((set, get) => ({
    toasts: [],
    push(tone, text) {
      const id = next++;
      // At most four on screen: the oldest gives way.
      set({ toasts: [...get().toasts.slice(-3), { id, tone, text }] });
      setTimer(() => get().dismiss(id), TOAST_MS);
    },
    dismiss(id) {
      set({ toasts: get().toasts.filter((t) => t.id !== id) });
    },
  }));
}

export type ConsoleStores = ReturnType<typeof createConsoleStores>;

/** `initial` seeds the session (server-side renders in tests show a store's initial state). */
export function createConsoleStores(api: ConsoleApi, initial: { session?: ConsoleSession; screen?: Screen } = {}) {
  return {
    api,
    session: createSessionStore(api, initial.session ?? null),
    outbox: createOutboxStore(api),
    data: createDataStore(api),
    nav: createNavStore(initial.screen),
    toasts: createToastStore(),
  };
}
