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
 */
import type { ChangeNotices, ChangedPetitions } from '../db/change-notices.ts';
import type { PetitionRow } from '../db/schema.ts';

export interface PetitionCacheStats {
  /** Reads answered from this node's copy. */
  hit: number;
  /** Reads that went to the database and kept what they read. */
  miss: number;
  /** Reads that went to the database because the notices could not be trusted at that moment. */
  bypassed: number;
  entries: number;
}

export interface PetitionCache {
  /** The petition's row: this node's copy when it may be trusted, else the database's. Never mutate it. */
  row(id: number): Promise<PetitionRow | undefined>;
  stats(): PetitionCacheStats;
}

/** Rows kept per node by default: a large site's whole catalogue, about 1-2 KB each. */
export const DEFAULT_PETITION_CACHE_ENTRIES = 100_000;

interface Flight {
  promise: Promise<PetitionRow | undefined>;
  stale: boolean;
}

export function createPetitionCache(deps: {
  load: (id: number) => Promise<PetitionRow | undefined>;
  notices: ChangeNotices | undefined;
  maxEntries?: number;
}): PetitionCache {
  const { load, notices } = deps;
  const maxEntries = deps.maxEntries ?? DEFAULT_PETITION_CACHE_ENTRIES;
  const stats = { hit: 0, miss: 0, bypassed: 0 };
  if (!notices || maxEntries <= 0) {
    return {
      row: (id) => {
        stats.bypassed += 1;
        return load(id);
      },
      stats: () => ({ ...stats, entries: 0 }),
    };
  }
  const entries = new Map<number, PetitionRow>();
  const flights = new Map<number, Flight>();

  notices.subscribe((changed: ChangedPetitions) => {
    if (changed === 'all') {
      entries.clear();
      for (const flight of flights.values()) flight.stale = true;
      return;
    }
    for (const id of changed) {
      entries.delete(id);
      const flight = flights.get(id);
      if (flight) flight.stale = true;
    }
  });

  function keep(id: number, row: PetitionRow): void {
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
    stats: () => ({ ...stats, entries: entries.size }),
  };
}
