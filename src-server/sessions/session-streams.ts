/**
 * Open streams (the live site stream, the staff event stream) outlive the request that checked their
 * session. When a member's sessions are ended on purpose (their data deleted, docs/privacy.md#deleting-your-data)
 * every node must end their streams too: "signed out everywhere". The node that ends them bumps a
 * marker row in site_settings in the same transaction; each node with streams open reads that one
 * key every second and, when it moved, asks which of its streams' sessions still exist and ends the
 * others. A stream registered just now is checked on the next tick as well, so one whose session
 * went between its check and its registration is not missed.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LIVE_TICK_MS } from '../../src-shared/domain/constants.ts';
import type { Database, Db } from '../db/schema.ts';

const MARKER_KEY = 'sessions_ended';
/** Session hashes per query, well under both engines' parameter limits. */
const HASHES_PER_QUERY = 500;

export interface SessionStreams {
  /** Registers an open stream of a session; returns what to call when the stream closes. */
  add(sessionHash: string, end: () => void): () => void;
  /** Inside the transaction that deletes sessions: tells every node to look at its streams. */
  announce(trx: Db, now: Date): Promise<void>;
  /** Looks at once (this node's own deletion has committed). */
  check(): Promise<void>;
  /** Streams open now (for tests). */
  size(): number;
  close(): void;
}

export function createSessionStreams(db: Kysely<Database>, options: { tickMs?: number; onError?: (error: unknown) => void } = {}): SessionStreams {
  const tickMs = options.tickMs ?? LIVE_TICK_MS;
  const streams = new Map<string, Set<() => void>>();
  const fresh = new Set<string>();
  let lastMarker: string | null | undefined;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  async function endGone(hashes: readonly string[]): Promise<void> {
    for (let start = 0; start < hashes.length; start += HASHES_PER_QUERY) {
      const chunk = hashes.slice(start, start + HASHES_PER_QUERY);
      const alive = new Set(
        (await db.selectFrom('sessions').select('id_hash').where('id_hash', 'in', chunk).execute()).map((row) => row.id_hash),
      );
      for (const hash of chunk) {
        if (alive.has(hash)) continue;
        for (const end of streams.get(hash) ?? []) end();
      }
    }
  }

  async function look(force: boolean): Promise<void> {
    const marker = (await db.selectFrom('site_settings').select('value').where('key', '=', MARKER_KEY).executeTakeFirst())?.value ?? null;
    const moved = force || marker !== lastMarker;
    lastMarker = marker;
    const toCheck = moved ? [...streams.keys()] : [...fresh].filter((hash) => streams.has(hash));
    fresh.clear();
    if (toCheck.length) await endGone(toCheck);
  }

  function run(force: boolean): Promise<void> {
    running ??= look(force)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
      });
    return running;
  }

  function startTimer(): void {
    if (timer) return;
    timer = setInterval(() => void run(false), tickMs);
    timer.unref();
  }

  function stopTimerIfIdle(): void {
    if (streams.size || !timer) return;
    clearInterval(timer);
    timer = null;
    lastMarker = undefined;
  }

  return {
    add(sessionHash, end) {
      let ends = streams.get(sessionHash);
      if (!ends) streams.set(sessionHash, (ends = new Set()));
      ends.add(end);
      fresh.add(sessionHash);
      startTimer();
      return () => {
        ends.delete(end);
        if (!ends.size) streams.delete(sessionHash);
        stopTimerIfIdle();
      };
    },
    async announce(trx, now) {
      const value = randomUUID();
      const stamp = now.toISOString();
      await trx
        .insertInto('site_settings')
        .values({ key: MARKER_KEY, value, updated_at: stamp })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: stamp }))
        .execute();
    },
    async check() {
      if (!streams.size) return;
      await running;
      await run(true);
    },
    size: () => [...streams.values()].reduce((total, ends) => total + ends.size, 0),
    close() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
