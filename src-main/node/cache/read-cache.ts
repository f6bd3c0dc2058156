/**
 * The read cache: every API GET the console makes is answered live when the backend answers and
 * stored with when it was fetched; without the backend the stored copy is answered instead,
 * marked as such. Rows are per staff member (what one may read another may not). Queued actions
 * that have not reached the server yet are laid over petitions, so the queues show what was done
 * offline (docs/console-outbox.md#offline-reads).
 */
import { z } from 'zod';
import { ApiError, NetworkError, type ApiClient } from '../../../src-shared/api/client.ts';
import type { CachedRead } from '../../../src-shared/console/ipc-contract.ts';
import { waitsForBackend } from '../../../src-shared/console/backend-availability.ts';
import type { StaffAction } from '../../../src-shared/console/staff-actions.ts';
import { PetitionSchema, type Petition } from '../../../src-shared/domain/schemas.ts';
import type { ConsoleDb } from '../db/console-database.ts';
import { IpcFailure } from '../ipc-failure.ts';
import { actionPetitionId, applyToPetition } from '../outbox/action-effects.ts';

const CachedRowSchema = z.object({ json: z.string(), fetched_at: z.number().int() });

export const PETITION_DETAIL_PATH = (id: number) => `/api/petitions/${id}`;

/** A petition-shaped object (a detail, a list item); anything else is left alone by the overlay. */
function isPetitionLike(value: unknown): value is Petition {
  return PetitionSchema.safeParse(value).success;
}

/**
 * The petition a read wraps as its `petition` field, as a moderation case does
 * (docs/moderation.md#the-queue): the case is about that petition, so queued decisions show on it.
 */
function wrappedPetition(value: unknown): Petition | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const inner = (value as { petition?: unknown }).petition;
  return isPetitionLike(inner) ? inner : null;
}

/** The petition an item is or wraps. */
function petitionOf(item: unknown): Petition | null {
  return isPetitionLike(item) ? item : wrappedPetition(item);
}

/**
 * The petitions a read holds (a petition or a case, an array of them, or `{items: [...]}`), for
 * the overlay's lookup.
 */
export function petitionIdsIn(data: unknown): number[] {
  const items = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : [data];
  return items.flatMap((item) => {
    const petition = petitionOf(item);
    return petition ? [petition.id] : [];
  });
}

/**
 * Lays queued actions over a read: a petition, an array of petitions, or an object whose `items`
 * are petitions (the list and queue shapes); a case wrapping its petition (the moderation queue and
 * case) gets its petition overlaid. Deleted petitions, and cases of deleted petitions, drop out of lists.
 */
export function overlayActions(data: unknown, actions: readonly StaffAction[], at?: string): unknown {
  if (actions.length === 0) return data;
  const byPetition = new Map<number, StaffAction[]>();
  for (const action of actions) {
    const id = actionPetitionId(action);
    if (id !== null) byPetition.set(id, [...(byPetition.get(id) ?? []), action]);
  }
  const overlayOne = (petition: Petition): Petition | null => {
    let current: Petition | null = petition;
    for (const action of byPetition.get(petition.id) ?? []) current = current && applyToPetition(current, action, at);
    return current;
  };
  const overlayList = (items: unknown[]): unknown[] =>
    items.flatMap((item) => {
      const petition = petitionOf(item);
      if (!petition || !byPetition.has(petition.id)) return [item];
      const next = overlayOne(petition);
      if (!next) return [];
      return [petition === item ? next : { ...(item as object), petition: next }];
    });
  if (Array.isArray(data)) return overlayList(data);
  if (isPetitionLike(data)) return byPetition.has(data.id) ? (overlayOne(data) ?? data) : data;
  const wrapped = wrappedPetition(data);
  if (wrapped) return byPetition.has(wrapped.id) ? { ...(data as object), petition: overlayOne(wrapped) ?? wrapped } : data;
  if (data && typeof data === 'object' && Array.isArray((data as { items?: unknown }).items)) {
    return { ...data, items: overlayList((data as { items: unknown[] }).items) };
  }
  return data;
}

export type ReadCache = ReturnType<typeof createReadCache>;

export function createReadCache(db: ConsoleDb) {
  const select = db.prepare('SELECT json, fetched_at FROM cached_reads WHERE user_id = ? AND path = ?');
  const upsert = db.prepare(`
    INSERT INTO cached_reads (user_id, path, json, fetched_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (user_id, path) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`);
  const updateJson = db.prepare('UPDATE cached_reads SET json = ? WHERE user_id = ? AND path = ?');

  function get(userId: string, path: string): { data: unknown; fetchedAt: number } | null {
    const raw = select.get(userId, path);
    if (!raw) return null;
    const row = CachedRowSchema.parse(raw);
    return { data: JSON.parse(row.json) as unknown, fetchedAt: row.fetched_at };
  }

  return {
    get,
    put(userId: string, path: string, data: unknown, fetchedAt: number): void {
      upsert.run(userId, path, JSON.stringify(data ?? null), fetchedAt);
    },

    /**
     * The local effect of a queued action, written in the enqueue transaction: the cached page of
     * its petition shows the change at once (its fetched_at stays, so its age is still honest).
     */
    applyLocally(userId: string, action: StaffAction): void {
      const petitionId = actionPetitionId(action);
      if (petitionId === null) return;
      const path = PETITION_DETAIL_PATH(petitionId);
      const cached = get(userId, path);
      if (!cached || !isPetitionLike(cached.data)) return;
      const next = applyToPetition(cached.data, action);
      if (next) updateJson.run(JSON.stringify(next), userId, path);
    },

    /** A petition the server returned for an applied action replaces the cached page's petition fields. */
    storePetition(userId: string, petition: Petition): void {
      const path = PETITION_DETAIL_PATH(petition.id);
      const cached = get(userId, path);
      if (!cached || !isPetitionLike(cached.data)) return;
      updateJson.run(JSON.stringify({ ...cached.data, ...petition }), userId, path);
    },
  };
}

export interface DataReaderOptions {
  cache: ReadCache;
  now: () => number;
  /** The signed-in user and an API client carrying their token, or null when signed out. */
  session: () => { userId: string; token: string; client: ApiClient } | null;
  unappliedActions: (userId: string, petitionIds: readonly number[]) => StaffAction[];
  onUnauthorized: (token: string) => void;
  /** Whether a working backend answered, or it was not available (no answer, 502, 503, 504). */
  onContact: (available: boolean) => void;
}

/** `data:read`: live first, the cache when the backend cannot answer. */
export async function readThroughCache(options: DataReaderOptions, path: string): Promise<CachedRead> {
  const session = options.session();
  if (!session) throw new IpcFailure('not_signed_in', 'Sign in to read staff data.');
  const fromCache = (error: unknown): CachedRead => {
    const cached = options.cache.get(session.userId, path);
    if (!cached) {
      const reason = error instanceof ApiError ? error.detail : 'The server could not be reached';
      throw new IpcFailure('failed', `${reason}, and this page has not been read on this computer before.`);
    }
    return {
      data: overlayActions(cached.data, options.unappliedActions(session.userId, petitionIdsIn(cached.data)), new Date(options.now()).toISOString()),
      fetchedAt: new Date(cached.fetchedAt).toISOString(),
      fromCache: true,
    };
  };
  try {
    const data = await session.client.read(path);
    options.onContact(true);
    const fetchedAt = options.now();
    options.cache.put(session.userId, path, data, fetchedAt);
    return {
      data: overlayActions(data, options.unappliedActions(session.userId, petitionIdsIn(data)), new Date(fetchedAt).toISOString()),
      fetchedAt: new Date(fetchedAt).toISOString(),
      fromCache: false,
    };
  } catch (error) {
    if (error instanceof NetworkError) {
      options.onContact(false);
      return fromCache(error);
    }
    if (error instanceof ApiError) {
      options.onContact(!waitsForBackend(error.status, error.detail));
      if (error.status === 401) {
        options.onUnauthorized(session.token);
        return fromCache(error);
      }
      // Busy or down behind a proxy: the stored copy is better than nothing.
      if (error.status >= 500 || error.status === 429 || error.status === 408) return fromCache(error);
      throw new IpcFailure(error.status === 404 ? 'not_found' : 'failed', error.detail);
    }
    throw error;
  }
}
