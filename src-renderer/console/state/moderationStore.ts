/**
 * The moderation queue's data (docs/moderation.md#in-the-staff-console): both views of the queue
 * read page by page, the cases opened one by one, and the rejection reasons, all through
 * `data:read` (live, or the offline cache with queued decisions laid over), plus the queue's own
 * selection: the case the cursor is on, the cases marked for a bulk decision, and the search.
 */
import { create } from 'zustand';
import type { ConsoleApi } from '../../../src-shared/console/ipc-contract.ts';
import { MODERATION_QUEUE_PAGE_MAX, type ModerationQueueView } from '../../../src-shared/domain/moderation-constants.ts';
import type { ModerationCase, ModerationQueue, RejectionReason } from '../../../src-shared/domain/moderation-schemas.ts';
import { errorMessage } from '../consoleApi.ts';
import { NOT_LOADED, readPath, type Loaded } from './cachedReads.ts';

/** Pages read at most per view (50 cases each): a queue longer than this is read in its first 1,000. */
const MAX_PAGES = 20;

export interface ModerationQueueRead {
  items: ModerationCase[];
  total: number;
  counts: ModerationQueue['counts'];
}

export interface ModerationDataState {
  view: ModerationQueueView;
  queues: Record<ModerationQueueView, Loaded<ModerationQueueRead>>;
  cases: Record<number, Loaded<ModerationCase>>;
  reasons: Loaded<RejectionReason[]>;
  /**
   * Cases as last read before the latest read, by petition id: a case with a decision still on its
   * way stays in the queue until the decision applies, although the server's queue no longer has it.
   */
  seen: Record<number, ModerationCase>;
  search: string;
  /** The case the queue's cursor is on, so coming back lands on it. */
  selected: number | null;
  /** Cases marked for a bulk decision, by petition id. */
  marked: number[];
  loadQueue(view?: ModerationQueueView): Promise<void>;
  loadCase(id: number): Promise<void>;
  loadReasons(): Promise<void>;
  setView(view: ModerationQueueView): void;
  setSearch(search: string): void;
  select(id: number): void;
  toggleMarked(id: number): void;
  setMarked(ids: readonly number[]): void;
  /** The freshest copy of a case the console holds (its own read, else a queue's item). */
  caseOf(id: number): ModerationCase | null;
}

export const moderationQueuePath = (view: ModerationQueueView, page: number) =>
  `/api/moderation/queue?${new URLSearchParams({ view, page: String(page), pageSize: String(MODERATION_QUEUE_PAGE_MAX) })}`;

export const moderationCasePath = (id: number) => `/api/moderation/petitions/${id}`;

export const REJECTION_REASONS_PATH = '/api/rejection-reasons';

/** Every page of one view; the oldest fetch time of the pages is the read's age. */
async function readQueue(api: ConsoleApi, view: ModerationQueueView) {
  const first = await readPath<ModerationQueue>(api, moderationQueuePath(view, 1));
  const pages = Math.min(MAX_PAGES, Math.ceil(first.data.total / MODERATION_QUEUE_PAGE_MAX));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => readPath<ModerationQueue>(api, moderationQueuePath(view, i + 2))),
  );
  const all = [first, ...rest];
  const seen = new Set<number>();
  // A case can move between pages while they are read: each petition once, where it first appears.
  const items = all.flatMap((r) => r.data.items).filter((item) => !seen.has(item.petition.id) && (seen.add(item.petition.id), true));
  return {
    data: { items, total: first.data.total, counts: first.data.counts },
    fetchedAt: all.map((r) => r.fetchedAt).sort()[0] ?? first.fetchedAt,
    fromCache: all.some((r) => r.fromCache),
  };
}

export function createModerationStore(api: ConsoleApi) {
  return create<ModerationDataState>()((set, get) => ({
    view: 'review',
    queues: { review: NOT_LOADED, rejected: NOT_LOADED },
    cases: {},
    reasons: NOT_LOADED,
    seen: {},
    search: '',
    selected: null,
    marked: [],
    async loadQueue(view = get().view) {
      const setQueue = (next: Loaded<ModerationQueueRead>) => set({ queues: { ...get().queues, [view]: next } });
      setQueue({ ...get().queues[view], status: 'loading', error: null });
      try {
        const read = await readQueue(api, view);
        const seen = { ...get().seen };
        for (const item of get().queues[view].data?.items ?? []) seen[item.petition.id] = item;
        set({ seen });
        setQueue({ ...read, status: 'ready', error: null });
      } catch (error) {
        setQueue({ ...get().queues[view], status: 'error', error: errorMessage(error) });
      }
    },
    async loadCase(id) {
      const setCase = (next: Loaded<ModerationCase>) => set({ cases: { ...get().cases, [id]: next } });
      setCase({ ...(get().cases[id] ?? NOT_LOADED), status: 'loading', error: null });
      try {
        setCase({ ...(await readPath<ModerationCase>(api, moderationCasePath(id))), status: 'ready', error: null });
      } catch (error) {
        setCase({ ...(get().cases[id] ?? NOT_LOADED), status: 'error', error: errorMessage(error) });
      }
    },
    async loadReasons() {
      try {
        set({ reasons: { ...(await readPath<RejectionReason[]>(api, REJECTION_REASONS_PATH)), status: 'ready', error: null } });
      } catch (error) {
        set({ reasons: { ...get().reasons, status: 'error', error: errorMessage(error) } });
      }
    },
    setView(view) {
      // Marks belong to the view they were made in.
      set({ view, marked: [] });
    },
    setSearch(search) {
      set({ search });
    },
    select(id) {
      set({ selected: id });
    },
    toggleMarked(id) {
      const marked = get().marked;
      set({ marked: marked.includes(id) ? marked.filter((m) => m !== id) : [...marked, id] });
    },
    setMarked(ids) {
      set({ marked: [...ids] });
    },
    caseOf(id) {
      const own = get().cases[id]?.data;
      const { review, rejected } = get().queues;
      const rows = [...(review.data?.items ?? []), ...(rejected.data?.items ?? []), ...(get().seen[id] ? [get().seen[id]!] : [])].filter((c) => c.petition.id === id);
      // Whichever copy saw the latest version of the petition is the one to decide on.
      return [...(own ? [own] : []), ...rows].sort((a, b) => b.petition.version - a.petition.version)[0] ?? null;
    },
  }));
}
