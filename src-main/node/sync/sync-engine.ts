/**
 * Sends the outbox: pending → sending → applied (or retry_wait, blocked_auth, conflict, rejected,
 * failed). Serial per target (the store only hands out the oldest unfinished row of a target),
 * parallel across targets up to `concurrency`. Only the signed-in user's rows are sent, with that
 * user's token. Outcomes are written in small batches, one transaction each; a crash before that
 * write leaves the row in `sending`, and start-up sends it again with the same key (the server
 * replays its stored answer), so an action applies once.
 */
import { createApiClient, ApiError } from '../../../src-shared/api/client.ts';
import { PetitionSchema, type Petition } from '../../../src-shared/domain/schemas.ts';
import type { AuthPort } from '../ports.ts';
import type { OutboxRow, OutboxStore, SendResult } from '../outbox/outbox-store.ts';
import { callFor, resultOf } from './send-action.ts';

export const DEFAULT_SYNC_CONCURRENCY = 4;

export interface SyncEngineOptions {
  store: OutboxStore;
  auth: AuthPort;
  apiBaseUrl: string;
  fetch: typeof fetch;
  now: () => number;
  random: () => number;
  concurrency?: number;
  /** After each batch of outcomes is stored (to emit outbox:changed). */
  onRecorded: (results: readonly { row: OutboxRow; result: SendResult }[]) => void;
  /** Whether the backend answered at all (any HTTP answer) or could not be reached. */
  onContact: (reachable: boolean) => void;
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

export function createSyncEngine(options: SyncEngineOptions) {
  const { store, auth, now, random } = options;
  const concurrency = options.concurrency ?? DEFAULT_SYNC_CONCURRENCY;
  let started = false;
  let stopped = false;
  let inFlight = 0;
  /** The token that got a 401: nothing is sent until the session changes. */
  let rejectedToken: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let pumpScheduled = false;
  const finished: { row: OutboxRow; result: SendResult }[] = [];
  const inFlightPromises = new Set<Promise<void>>();
  let idleWaiters: (() => void)[] = [];

  function clientFor(token: string) {
    return createApiClient({
      baseUrl: options.apiBaseUrl,
      fetch: options.fetch,
      headers: () => ({ authorization: `Bearer ${token}` }),
    });
  }

  async function conflictPetition(client: ReturnType<typeof clientFor>, row: OutboxRow, result: SendResult): Promise<SendResult> {
    if (result.state !== 'conflict' || result.serverPetition || !('petitionId' in row.action)) return result;
    // A domain conflict (409) may not carry the petition; fetch it so a person sees what won.
    try {
      const current: unknown = await client.getPetition(row.action.petitionId);
      const parsed = PetitionSchema.safeParse(current);
      return { ...result, serverPetition: parsed.success ? (parsed.data as Petition) : null };
    } catch {
      return result;
    }
  }

  async function send(row: OutboxRow, token: string): Promise<void> {
    const client = clientFor(token);
    let result: SendResult;
    try {
      const body = await callFor(client, row.action, row.idempotencyKey);
      options.onContact(true);
      result = resultOf(row, { ok: true, body }, { now: now(), random });
    } catch (error) {
      options.onContact(error instanceof ApiError);
      result = await conflictPetition(client, row, resultOf(row, { ok: false, error }, { now: now(), random }));
    }
    if (result.state === 'blocked_auth' && rejectedToken !== token) {
      rejectedToken = token;
      auth.reportUnauthorized(token);
    }
    finished.push({ row, result });
  }

  function flush(): void {
    if (finished.length === 0) return;
    const batch = finished.splice(0, finished.length);
    store.recordResults(batch.map(({ row, result }) => ({ seq: row.seq, result })));
    options.onRecorded(batch);
  }

  function schedulePump(): void {
    if (pumpScheduled || stopped) return;
    pumpScheduled = true;
    setImmediate(pump);
  }

  function armTimer(userId: string): void {
    if (timer) clearTimeout(timer);
    timer = null;
    const at = store.nextDueAt(userId);
    if (at === null) return;
    const delay = Math.max(0, at - now());
    // Rows that are due but held back (behind an unfinished row of their target) get a pump when
    // that row finishes; the timer is for rows whose time has not come yet.
    if (delay === 0) return;
    timer = setTimeout(() => {
      timer = null;
      schedulePump();
    }, Math.min(delay, 2 ** 31 - 1));
    timer.unref?.();
  }

  function pump(): void {
    pumpScheduled = false;
    if (stopped) return;
    flush();
    const session = auth.current();
    let claimed = 0;
    if (started && session && session.token !== rejectedToken) {
      const rows = store.claimDue(session.userId, concurrency - inFlight);
      claimed = rows.length;
      for (const row of rows) {
        inFlight += 1;
        const promise = send(row, session.token)
          .catch((error: unknown) => {
            // send() classifies every failure; this is a bug guard so a row is never left unrecorded.
            finished.push({ row, result: { state: 'retry_wait', status: null, error: String(error), nextAttemptAt: now() + 1000 } });
          })
          .finally(() => {
            inFlight -= 1;
            inFlightPromises.delete(promise);
            schedulePump();
          });
        inFlightPromises.add(promise);
      }
      if (claimed > 0) options.onRecorded([]);
      armTimer(session.userId);
    }
    if (inFlight === 0 && claimed === 0 && finished.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  const unsubscribe = auth.onChange(() => {
    const session = auth.current();
    if (session && session.token !== rejectedToken) {
      rejectedToken = null;
      if (store.unblockAuth(session.userId) > 0) options.onRecorded([]);
    }
    schedulePump();
  });

  return {
    start(): void {
      if (started) return;
      started = true;
      store.recoverSending();
      schedulePump();
    },
    /** Something happened that may let rows go (enqueue, retry, back online). */
    kick(): void {
      if (started) schedulePump();
    },
    /** Resolves when nothing is in flight and nothing due can be sent right now. */
    whenIdle(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        schedulePump();
      });
    },
    /** Lets in-flight calls finish and records them; sends nothing new. */
    async stop(): Promise<void> {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...inFlightPromises]);
      flush();
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    },
  };
}
