/**
 * The console core: local database, read cache, outbox and sync engine behind the contract's
 * data/outbox/sync channels. Plain Node (never Electron): the installed console, `npm run
 * console:browser` and the tests all run this same code.
 */
import { createApiClient } from '../../src-shared/api/client.ts';
import { PetitionSchema } from '../../src-shared/domain/schemas.ts';
import { createReadCache, readThroughCache } from './cache/read-cache.ts';
import { openConsoleDb } from './db/console-database.ts';
import { IpcFailure } from './ipc-failure.ts';
import type { OutboxRow } from './outbox/outbox-row.ts';
import { createOutboxStore, OutboxStateError } from './outbox/outbox-store.ts';
import type { ConsoleCore, ConsoleCoreOptions } from './ports.ts';
import { createBackendProbe } from './sync/backend-probe.ts';
import { createSyncEngine } from './sync/sync-engine.ts';

/** A read that has not answered by then is answered from the cache instead. */
const READ_TIMEOUT_MS = 15_000;
/** outbox:changed at most this often while a large queue drains (the last change always goes out). */
const CHANGE_EVENT_INTERVAL_MS = 100;

export interface ConsoleCoreTuning {
  /** Parallel sends across targets (default 4). */
  concurrency?: number;
  /** Abandon a sync call after this long and retry it with the same key (default 30 s). */
  sendTimeoutMs?: number;
}

/** The core plus, for tests and tools, a way to wait until sync has nothing left it can do now. */
export interface ConsoleCoreWithIdle extends ConsoleCore {
  whenIdle(): Promise<void>;
}

export function createConsoleCore(options: ConsoleCoreOptions & ConsoleCoreTuning): ConsoleCoreWithIdle {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const doFetch = options.fetch ?? ((...request: Parameters<typeof fetch>) => fetch(...request));
  const db = openConsoleDb(options.dataDir);
  const store = createOutboxStore(db, { now });
  const cache = createReadCache(db);
  const { auth, events } = options;

  /*
   * Whether the backend is available, as the core last learnt it. While it is not, nothing is sent
   * (the engine asks mayContact) and the probe asks /readyz until it answers; then the rows that
   * waited for it are released and sent at once (docs/console-outbox.md#backoff).
   */
  let online = true;
  let lastContactAt: number | null = null;
  const probe = createBackendProbe({
    apiBaseUrl: options.apiBaseUrl,
    fetch: doFetch,
    now,
    onReady: () => backendAvailable(),
  });

  function backendAvailable(): void {
    lastContactAt = now();
    probe.stop();
    if (online) return;
    online = true;
    releaseWaiting();
    emitChanged();
    engine.kick();
  }

  function backendUnavailable(): void {
    probe.start();
    if (!online) return;
    online = false;
    emitChanged();
  }

  /** The signed-in member's rows that waited for the backend are due now. */
  function releaseWaiting(): void {
    const session = auth.current();
    if (session) store.releaseWaitingForBackend(session.userId);
  }

  function onContact(available: boolean): void {
    if (available) backendAvailable();
    else backendUnavailable();
  }

  let lastEmit = 0;
  let emitTimer: NodeJS.Timeout | null = null;
  function emitChanged(): void {
    const wait = lastEmit + CHANGE_EVENT_INTERVAL_MS - now();
    if (wait > 0) {
      emitTimer ??= setTimeout(() => {
        emitTimer = null;
        emitChanged();
      }, wait);
      return;
    }
    lastEmit = now();
    events.emit('outbox:changed', store.summary());
  }

  function onRecorded(batch: readonly { row: OutboxRow; result: { state: string; result?: unknown } }[]): void {
    for (const { row, result } of batch) {
      if (result.state !== 'applied') continue;
      const petition = PetitionSchema.safeParse(result.result);
      if (petition.success) cache.storePetition(row.actorUserId, petition.data);
    }
    emitChanged();
  }

  const engine = createSyncEngine({
    store,
    auth,
    apiBaseUrl: options.apiBaseUrl,
    fetch: doFetch,
    now,
    random,
    concurrency: options.concurrency,
    sendTimeoutMs: options.sendTimeoutMs,
    onRecorded,
    onContact,
    mayContact: () => online,
  });

  function requireUser(): string {
    const session = auth.current();
    if (!session) throw new IpcFailure('not_signed_in', 'Sign in to queue staff actions.');
    return session.userId;
  }

  /** Store errors become contract failures the renderer can show. */
  function guarded<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      if (error instanceof OutboxStateError) throw new IpcFailure(error.code === 'not_found' ? 'not_found' : 'failed', error.message);
      throw error;
    }
  }

  function changed(): void {
    emitChanged();
    engine.kick();
  }

  return {
    handlers: {
      'data:read': async ({ path }) =>
        readThroughCache(
          {
            cache,
            now,
            session: () => {
              const session = auth.current();
              if (!session) return null;
              const client = createApiClient({
                baseUrl: options.apiBaseUrl,
                fetch: (input, init) => doFetch(input, { ...init, signal: AbortSignal.timeout(READ_TIMEOUT_MS) }),
                headers: () => ({ authorization: `Bearer ${session.token}` }),
              });
              return { ...session, client };
            },
            unappliedActions: (userId, petitionIds) => store.unappliedPetitionActions(userId, petitionIds),
            onUnauthorized: (token) => auth.reportUnauthorized(token),
            onContact,
          },
          path,
        ),

      'outbox:enqueue': async ({ actions, batch }) => {
        const userId = requireUser();
        const entries = store.enqueue(userId, actions, { batch, applyLocally: (action) => cache.applyLocally(userId, action) });
        changed();
        return { entries };
      },

      'outbox:list': async ({ states, batchId, limit }) => ({
        entries: store.list({ states, batchId, limit }),
        summary: store.summary(),
      }),

      'outbox:retry': async ({ id }) => {
        const row = guarded(() => store.retry(id));
        changed();
        return row.entry;
      },

      'outbox:discard': async ({ id }) => {
        const row = guarded(() => store.discard(id));
        changed();
        return row.entry;
      },

      'outbox:resubmit': async ({ id, action }) => {
        const userId = requireUser();
        const entries = guarded(() => store.resubmit(id, userId, action, (a) => cache.applyLocally(userId, a)));
        changed();
        return { entries };
      },

      'sync:now': async () => {
        const session = auth.current();
        // A person asked: try now, even if the backend was not there a moment ago.
        online = true;
        if (session) store.makeDueNow(session.userId);
        engine.kick();
        return store.summary();
      },
    },

    start() {
      // Rows that waited for the backend before a restart go at once: the engine finds out.
      releaseWaiting();
      engine.start();
    },

    async whenIdle() {
      await engine.whenIdle();
      // The throttled last outbox:changed goes out now rather than after its delay.
      if (emitTimer) {
        clearTimeout(emitTimer);
        emitTimer = null;
        lastEmit = now();
        events.emit('outbox:changed', store.summary());
      }
    },

    setOnline(isOnline) {
      if (!isOnline) {
        backendUnavailable();
        return;
      }
      // The platform says the network is back: try at once rather than at the next probe.
      online = true;
      probe.stop();
      const session = auth.current();
      if (session) store.makeDueNow(session.userId);
      emitChanged();
      engine.kick();
    },

    connectivity() {
      return { online, lastContactAt: lastContactAt === null ? null : new Date(lastContactAt).toISOString() };
    },

    queuedForOthers(userId) {
      return store.queuedForOthers(userId);
    },

    discardQueuedFor(userId) {
      const discarded = store.discardQueuedFor(userId);
      if (discarded > 0) emitChanged();
      return discarded;
    },

    async close() {
      probe.stop();
      await engine.stop();
      if (emitTimer) clearTimeout(emitTimer);
      db.close();
    },
  };
}
