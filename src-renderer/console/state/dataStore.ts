/**
 * The queues, terms and petitions the console shows, read through the cache (cachedReads.ts), and
 * the queues' filters.
 */
import { create } from 'zustand';
import type { ConsoleApi } from '../../../src-shared/console/ipc-contract.ts';
import type { Petition, PetitionDetail, Term } from '../../../src-shared/domain/schemas.ts';
import { errorMessage } from '../consoleApi.ts';
import { DEFAULT_FILTERS, QUEUES } from '../queues.ts';
import type { QueueFilters, QueueKind } from '../queues.ts';
import { NOT_LOADED, readAllPetitions, readPath, type Loaded } from './cachedReads.ts';

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
