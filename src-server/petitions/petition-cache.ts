/**
 * The petition page's row, kept by each PostgreSQL node (docs/operations.md#the-petition-read-cache).
 * On PostgreSQL every read is a round trip whose protocol work costs the node about three times what
 * SQLite's in-process lookup costs; most page views read a petition that has not changed since the
 * last view. So each node keeps the rows it read and forgets one when the database says it changed
 * (db/change-notices.ts: a trigger notices every UPDATE and DELETE, whoever made it). The cache is
 * trusted only while those notices are known to be complete and recent; otherwise every read goes to
 * the database, and nothing read then is kept.
 *
 * A read that was under way when its petition changed may have read the old row, so it is not kept
 * (`stale`); reads of one petition that arrive together share one query. Entries are evicted oldest
 * first past `maxEntries`. SQLite has no cache: one process owns the file and reads it in-process.
 *
 * Whenever the cache starts from nothing (the node's first listening connection, or any reconnection)
 * it warms itself in the background: the most recently changed petitions first, WARM_CHUNK rows per
 * query, up to `maxEntries`, under the same rule (a row whose petition changed while its chunk was
 * being read is not kept). So a site whose petitions fit is served from memory soon after a start,
 * not only after each petition's first view.
 */
import { cacheWarming, type CacheWarming } from '../db/cache-warming.ts';
import { noticesTrusted, type ChangeNotices, type ChangedPetitions } from '../db/change-notices.ts';
import type { PetitionPageRow } from '../db/schema.ts';

export interface PetitionCacheStats {
  /** Reads answered from this node's copy. */
  hit: number;
  /** Reads that went to the database and kept what they read. */
  miss: number;
  /** Reads that went to the database because the notices could not be trusted at that moment. */
  bypassed: number;
  entries: number;
  /** Rows kept by warming (not by a page view). */
  warmed: number;
  warming: CacheWarming;
}

export interface PetitionCache {
  /** The petition's row: this node's copy when it may be trusted, else the database's. Never mutate it. */
  row(id: number): Promise<PetitionPageRow | undefined>;
  /** Whether rows are kept at all (PostgreSQL with change notices); otherwise `row` always reads the database. */
  readonly keepsRows: boolean;
  stats(): PetitionCacheStats;
}

/** Rows kept per node by default: a large site's whole catalogue (about 1.4 KB each for the benchmark's petitions). */
export const DEFAULT_PETITION_CACHE_ENTRIES = 100_000;
const WARM_CHUNK = 1_000;

/** Where warming resumes: after this (updated_at, id), newest first. */
export type WarmCursor = { updatedAt: string; id: number } | null;

interface Flight {
  promise: Promise<PetitionPageRow | undefined>;
  stale: boolean;
}

export function createPetitionCache(deps: {
  load: (id: number) => Promise<PetitionPageRow | undefined>;
  /** The next `limit` petitions after `cursor`, most recently changed first (for warming); none: no warming. */
  loadRecent?: (cursor: WarmCursor, limit: number) => Promise<PetitionPageRow[]>;
  notices: ChangeNotices | undefined;
  maxEntries?: number;
}): PetitionCache {
  const { load, notices } = deps;
  const maxEntries = deps.maxEntries ?? DEFAULT_PETITION_CACHE_ENTRIES;
  const stats = { hit: 0, miss: 0, bypassed: 0, warmed: 0 };
  if (!notices || maxEntries <= 0) {
    return {
      row: (id) => {
        stats.bypassed += 1;
        return load(id);
      },
      keepsRows: false,
      stats: () => ({ ...stats, entries: 0, warming: cacheWarming(false, 0) }),
    };
  }
  const entries = new Map<number, PetitionPageRow>();
  const flights = new Map<number, Flight>();
  /** Times the cache started from nothing; petitions changed while warming's current chunk is read. */
  let resets = 0;
  let changedWhileWarming: Set<number> | null = null;
  let warming = false;
  let warmAgain = false;
  let warmingPasses = 0;

  notices.subscribe((changed: ChangedPetitions) => {
    if (changed === 'all') {
      entries.clear();
      resets += 1;
      for (const flight of flights.values()) flight.stale = true;
      void warm();
      return;
    }
    for (const id of changed) {
      entries.delete(id);
      changedWhileWarming?.add(id);
      const flight = flights.get(id);
      if (flight) flight.stale = true;
    }
  });

  const trusted = () => noticesTrusted(() => notices!.current());

  async function warm(): Promise<void> {
    if (!deps.loadRecent) return;
    if (warming) {
      warmAgain = true;
      return;
    }
    warming = true;
    const epoch = resets;
    try {
      let cursor: WarmCursor = null;
      while (entries.size < maxEntries && epoch === resets && (await trusted())) {
        const changed = new Set<number>();
        changedWhileWarming = changed;
        const rows = await deps.loadRecent(cursor, WARM_CHUNK).finally(() => {
          changedWhileWarming = null;
        });
        if (epoch !== resets) return;
        for (const row of rows) {
          if (entries.size >= maxEntries) break;
          if (changed.has(row.id) || entries.has(row.id)) continue;
          entries.set(row.id, row);
          stats.warmed += 1;
        }
        const last = rows.at(-1);
        if (!last || rows.length < WARM_CHUNK) return;
        cursor = { updatedAt: last.updated_at, id: last.id };
      }
    } catch {
      // A failed warming leaves the cache to fill as pages are read.
    } finally {
      warming = false;
      warmingPasses += 1;
      if (warmAgain) {
        warmAgain = false;
        void warm();
      }
    }
  }

  function keep(id: number, row: PetitionPageRow): void {
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(id, row);
  }

  return {
    row(id) {
      if (!notices.current()) {
        stats.bypassed += 1;
        return load(id);
      }
      const kept = entries.get(id);
      if (kept) {
        stats.hit += 1;
        return Promise.resolve(kept);
      }
      const shared = flights.get(id);
      if (shared) return shared.promise;
      stats.miss += 1;
      const flight: Flight = {
        stale: false,
        promise: load(id).then(
          (row) => {
            flights.delete(id);
            if (row && !flight.stale) keep(id, row);
            return row;
          },
          (error: unknown) => {
            flights.delete(id);
            throw error;
          },
        ),
      };
      flights.set(id, flight);
      return flight.promise;
    },
    keepsRows: true,
    stats: () => ({ ...stats, entries: entries.size, warming: cacheWarming(warming, warmingPasses) }),
  };
}
