/**
 * Sends the outbox: pending → sending → applied (or retry_wait, blocked_auth, conflict, rejected,
 * failed). Serial per target (the store only hands out the oldest unfinished row of a target),
 * parallel across targets up to `concurrency`. Only the signed-in user's rows are sent, with that
 * user's token.
 *
 * Bookkeeping is group-committed: one SQLite transaction records every attempt that finished since
 * the last one and claims the next rows into a small in-memory ready list, so sends never wait for
 * the disk. That transaction is deliberately not fsynced (synchronous=NORMAL for it alone: the
 * store's `settleAndClaim`). A crash loses at most the outcomes not yet written, and a power cut
 * may also undo the latest bookkeeping: either way those rows are `pending` or `sending` again, and
 * are sent again with the same key (the server replays its stored answer), so an action applies once.
 */
import { createApiClient, ApiError } from '../../../src-shared/api/client.ts';
import { PetitionSchema, type Petition } from '../../../src-shared/domain/schemas.ts';
import type { AuthPort } from '../ports.ts';
import type { OutboxRow } from '../outbox/outbox-row.ts';
import type { OutboxStore, SendResult } from '../outbox/outbox-store.ts';
import { bulkCallOf, reachedBackend, resultOf, sendBulkCall } from './send-action.ts';
import { performStaffAction } from '../../../src-shared/console/staff-action-calls.ts';
import { MODERATION_BULK_MAX_ITEMS } from '../../../src-shared/domain/moderation-constants.ts';

export const DEFAULT_SYNC_CONCURRENCY = 4;
/** Claimed rows kept ready per parallel send, so a send can start without a disk write. */
const READY_PER_SLOT = 8;
/** The shortest gap between two bookkeeping transactions while sync is busy. */
const TICK_INTERVAL_MS = 4;
/** A call that has not answered by then is abandoned and retried with the same key (a hung backend must not hold a slot forever). */
export const SEND_TIMEOUT_MS = 30_000;
/** Applied and cancelled rows are kept this long (the outbox panel's history), then pruned at start. */
export const FINISHED_ROW_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Rows of one batch sent together (bulk-status takes up to 500 items, bulk-moderation MODERATION_BULK_MAX_ITEMS = 100). */
const BULK_MAX_ITEMS = Math.min(100, MODERATION_BULK_MAX_ITEMS);

export interface SyncEngineOptions {
  store: OutboxStore;
  auth: AuthPort;
  apiBaseUrl: string;
  fetch: typeof fetch;
  now: () => number;
  random: () => number;
  concurrency?: number;
  /** Abandon a call after this long (default SEND_TIMEOUT_MS). */
  sendTimeoutMs?: number;
  /** After each batch of outcomes is stored (to emit outbox:changed). */
  onRecorded: (results: readonly { row: OutboxRow; result: SendResult }[]) => void;
  /** Whether a working backend answered, or it was not available (no answer, 502, 503, 504). */
  onContact: (available: boolean) => void;
  /**
   * Whether to send at all: false while the backend is known not to be available. The rows then
   * wait, and the core kicks the engine when the backend answers again (its probe). Default: always.
   */
  mayContact?: () => boolean;
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

interface ReadyRow {
  row: OutboxRow;
  /** The token of the session that claimed it: the row is only ever sent with this one. */
  token: string;
}

export function createSyncEngine(options: SyncEngineOptions) {
  const { store, auth, now, random } = options;
  const mayContact = options.mayContact ?? (() => true);
  const concurrency = options.concurrency ?? DEFAULT_SYNC_CONCURRENCY;
  const readyTarget = concurrency * READY_PER_SLOT;
  let started = false;
  let stopped = false;
  let inFlight = 0;
  /** The token that got a 401: nothing is sent with it again. */
  let rejectedToken: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let tickScheduled = false;
  let ready: ReadyRow[] = [];
  const finished: { row: OutboxRow; result: SendResult }[] = [];
  const unsent: number[] = [];
  const inFlightPromises = new Set<Promise<void>>();
  let idleWaiters: (() => void)[] = [];

  const timedFetch: typeof fetch = (input, init) => options.fetch(input, { ...init, signal: AbortSignal.timeout(options.sendTimeoutMs ?? SEND_TIMEOUT_MS) });

  function clientFor(token: string) {
    return createApiClient({
      baseUrl: options.apiBaseUrl,
      fetch: timedFetch,
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
      // The row's time is when the staff member made the action (the audit log keeps it).
      const body = await performStaffAction(client, row.action, row.idempotencyKey, row.entry.createdAt);
      options.onContact(true);
      result = resultOf(row, { ok: true, body }, { now: now(), random });
    } catch (error) {
      options.onContact(reachedBackend(error));
      result = await conflictPetition(client, row, resultOf(row, { ok: false, error }, { now: now(), random }));
    }
    if (result.state === 'blocked_auth' && rejectedToken !== token) {
      rejectedToken = token;
      auth.reportUnauthorized(token);
    }
    finished.push({ row, result });
  }

  /** Rows of one bulk status override or bulk moderation go as one call; each item gets its own row's answer. */
  async function sendBulk(rows: readonly OutboxRow[], token: string): Promise<void> {
    const client = clientFor(token);
    try {
      const results = await sendBulkCall(client, rows, { now: now(), random });
      options.onContact(true);
      rows.forEach((row, index) => finished.push({ row, result: results[index]! }));
    } catch (error) {
      options.onContact(reachedBackend(error));
      for (const row of rows) finished.push({ row, result: resultOf(row, { ok: false, error }, { now: now(), random }) });
      if (error instanceof ApiError && error.status === 401 && rejectedToken !== token) {
        rejectedToken = token;
        auth.reportUnauthorized(token);
      }
    }
  }

  /** The ready rows that go with `first` in one bulk call (same batch and call, same token), taken off the list. */
  function bulkPartners(first: ReadyRow): OutboxRow[] {
    const call = bulkCallOf(first.row);
    if (call === null) return [];
    const partners: OutboxRow[] = [];
    ready = ready.filter((candidate) => {
      const joins =
        partners.length < BULK_MAX_ITEMS - 1 &&
        candidate.token === first.token &&
        candidate.row.batchId === first.row.batchId &&
        bulkCallOf(candidate.row) === call;
      if (joins) partners.push(candidate.row);
      return !joins;
    });
    return partners;
  }

  /** Starts sends from the ready list up to the concurrency; rows that may not go are handed back. */
  function startSends(): void {
    const session = auth.current();
    while (inFlight < concurrency && ready.length > 0) {
      const next = ready.shift() as ReadyRow;
      if (stopped || !session || session.token !== next.token || next.token === rejectedToken || !mayContact()) {
        unsent.push(next.row.seq);
        continue;
      }
      inFlight += 1;
      const partners = bulkPartners(next);
      const group = [next.row, ...partners];
      const sending = partners.length > 0 ? sendBulk(group, next.token) : send(next.row, next.token);
      const promise = sending
        .catch((error: unknown) => {
          // Sends classify every failure; this guard only makes sure a row is never left unrecorded.
          const recorded = new Set(finished.map((f) => f.row.seq));
          for (const row of group) {
            if (!recorded.has(row.seq)) finished.push({ row, result: { state: 'retry_wait', status: null, error: String(error), nextAttemptAt: now() + 1000 } });
          }
        })
        .finally(() => {
          inFlight -= 1;
          inFlightPromises.delete(promise);
          startSends();
          scheduleTick();
        });
      inFlightPromises.add(promise);
    }
  }

  let lastTickAt = 0;
  /**
   * At most one bookkeeping transaction per TICK_INTERVAL_MS while busy: sends keep going from the
   * ready list meanwhile, and each commit records more outcomes at once.
   */
  function scheduleTick(): void {
    if (tickScheduled || stopped) return;
    tickScheduled = true;
    const wait = lastTickAt + TICK_INTERVAL_MS - performance.now();
    if (wait > 0) setTimeout(tick, wait);
    else setImmediate(tick);
  }

  function armTimer(userId: string): void {
    if (timer) clearTimeout(timer);
    timer = null;
    const at = store.nextDueAt(userId);
    if (at === null) return;
    const delay = at - now();
    // Rows that are due but held back (behind an unfinished row of their target) get a tick when
    // that row finishes; the timer is for rows whose time has not come yet.
    if (delay <= 0) return;
    timer = setTimeout(() => {
      timer = null;
      scheduleTick();
    }, Math.min(delay, 2 ** 31 - 1));
    timer.unref?.();
  }

  function tick(): void {
    tickScheduled = false;
    lastTickAt = performance.now();
    if (stopped) return;
    const session = auth.current();
    const canSend = started && session !== null && session.token !== rejectedToken && mayContact();
    if (!canSend || ready.some((r) => r.token !== session?.token)) {
      // Signed out, another user, or no backend: claimed rows go back, to wait for their user or the backend.
      for (const item of ready) unsent.push(item.row.seq);
      ready = [];
    }
    const results = finished.splice(0, finished.length);
    const handedBack = unsent.splice(0, unsent.length);
    // Refill when the ready list runs low rather than at every tick: each claim walks the queue.
    const wantMore = canSend && ready.length < concurrency * 2;
    const claimed = store.settleAndClaim(
      results.map(({ row, result }) => ({ seq: row.seq, result })),
      handedBack,
      wantMore && session ? { actorUserId: session.userId, limit: readyTarget - ready.length } : null,
    );
    if (session) for (const row of claimed) ready.push({ row, token: session.token });
    if (results.length > 0 || handedBack.length > 0 || claimed.length > 0) options.onRecorded(results);
    startSends();
    // With sends on their way, their completions bring the next tick; the timer is for a quiet queue.
    if (canSend && session && inFlight === 0 && ready.length === 0) armTimer(session.userId);
    if (inFlight === 0 && ready.length === 0 && finished.length === 0 && unsent.length === 0) {
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
    scheduleTick();
  });

  return {
    start(): void {
      if (started) return;
      started = true;
      store.pruneFinished(FINISHED_ROW_RETENTION_MS);
      store.recoverSending();
      scheduleTick();
    },
    /** Something happened that may let rows go (enqueue, retry, back online). */
    kick(): void {
      if (started) scheduleTick();
    },
    /** Resolves when nothing is in flight and nothing due can be sent right now. */
    whenIdle(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        scheduleTick();
      });
    },
    /** Lets in-flight calls finish and records them; claimed rows not yet sent go back to pending. */
    async stop(): Promise<void> {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...inFlightPromises]);
      for (const item of ready) unsent.push(item.row.seq);
      ready = [];
      const results = finished.splice(0, finished.length);
      store.settleAndClaim(results.map(({ row, result }) => ({ seq: row.seq, result })), unsent.splice(0, unsent.length), null);
      if (results.length > 0) options.onRecorded(results);
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    },
  };
}
