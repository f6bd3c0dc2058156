/**
 * The renderer's view of the outbox: the entries and summary the main process holds (the outbox
 * itself lives in src-main/node/outbox), refreshed on `outbox:changed`, with the changes of state
 * between two refreshes handed to listeners (toasts, queue reloads).
 */
import { create } from 'zustand';
import type { ConsoleApi } from '../../../src-shared/console/ipc-contract.ts';
import type { OutboxEntry, OutboxState, OutboxSummary } from '../../../src-shared/console/outbox.ts';
import type { StaffActionInput } from '../../../src-shared/console/staff-actions.ts';
import { call } from '../consoleApi.ts';

export interface OutboxTransition {
  entry: OutboxEntry;
  from: OutboxState | null;
}

export interface OutboxViewState {
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

export function createOutboxViewStore(api: ConsoleApi) {
  const listeners = new Set<(changes: OutboxTransition[]) => void>();
  let inFlight: Promise<void> | null = null;
  let again = false;

  const store = create<OutboxViewState>()((set, get) => {
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
