/**
 * Each PostgreSQL node's copy of the sessions it resolved, with their users
 * (docs/operations.md#the-session-cache). Every signed-in request resolves its session, and on
 * PostgreSQL that read is a round trip costing the database more than the rest of a signature's
 * lookups (the "sign floor" of the benchmark). A session rarely changes between two requests, so
 * the node keeps the rows it read and forgets them when the database says they changed: migration
 * 0023's triggers notice every change or deletion of a session or a user (a logout, a rank change,
 * an account deletion), whoever makes it, on the listening connection of db/change-notices.ts.
 *
 * The rule is the petition cache's (petitions/petition-cache.ts): the copy is trusted only while
 * the notices are known to be complete and recent (`sessionsCurrent()`: the node's own fence came
 * back less than FRESHNESS_MS ago, and after this node's own writes to sessions or users, their
 * notices too); otherwise every read goes to the database and nothing read then is kept. A read that
 * was under way when its session or user changed is not kept; a reconnection forgets everything and
 * warms again from the database. So a change made on another node stops being honoured here within
 * FRESHNESS_MS (1 s), and only while the notices flow does this node answer from memory.
 *
 * What the copy holds is never trusted for expiry or for the sliding touch: the session service
 * reads the database before it decides that a session expired or is due a touch (session-service.ts).
 */
import { cacheWarming, type CacheWarming } from '../db/cache-warming.ts';
import { noticesTrusted, type ChangeNotices, type ChangedSessions } from '../db/change-notices.ts';
import type { SessionRow, UserRow } from '../db/schema.ts';

export interface FoundSession {
  session: SessionRow;
  /** undefined: the session's user is gone (a deletion racing the read). */
  user: UserRow | undefined;
}

export interface SessionCacheStats {
  hit: number;
  miss: number;
  bypassed: number;
  entries: number;
  warmed: number;
  warming: CacheWarming;
}

export interface SessionCache {
  /** The session and its user: this node's copy when it may be trusted, else the database's. Never mutate it. */
  read(idHash: string): Promise<FoundSession | undefined>;
  /** The database's row, whatever the copy holds (kept under the same rule). */
  reload(idHash: string): Promise<FoundSession | undefined>;
  /** This node touched the session: `next` replaces the copy if `previous` is still the one kept. */
  touched(idHash: string, previous: FoundSession, next: FoundSession): void;
  /** This node deleted or changed the session (its notice will say so too; this is at once). */
  forget(idHash: string): void;
  forgetUser(userId: string): void;
  stats(): SessionCacheStats;
}

/** Sessions kept per node by default: a large site's signed-in members (about half a kilobyte each). */
export const DEFAULT_SESSION_CACHE_ENTRIES = 200_000;
const WARM_CHUNK = 1_000;

interface Flight {
  stale: boolean;
}

export function createSessionCache(deps: {
  load: (idHash: string) => Promise<FoundSession | undefined>;
  /** Live sessions after `cursor` (by id hash), `limit` of them, for warming; none: no warming. */
  loadAfter?: (cursor: string | null, limit: number) => Promise<FoundSession[]>;
  notices: ChangeNotices;
  maxEntries?: number;
}): SessionCache {
  const { load, notices } = deps;
  const maxEntries = deps.maxEntries ?? DEFAULT_SESSION_CACHE_ENTRIES;
  const stats = { hit: 0, miss: 0, bypassed: 0, warmed: 0 };
  const entries = new Map<string, FoundSession>();
  const byUser = new Map<string, Set<string>>();
  /** Reads under way: a notice for their session, or any user notice, makes them stale. */
  const flights = new Set<{ idHash: string; flight: Flight }>();
  let resets = 0;
  let warming = false;
  let warmAgain = false;
  let warmingPasses = 0;
  /** Sessions and users changed while warming's current chunk is read. */
  let changedWhileWarming: { sessions: Set<string>; users: Set<string> } | null = null;

  function drop(idHash: string): void {
    const kept = entries.get(idHash);
    if (!kept) return;
    entries.delete(idHash);
    const siblings = byUser.get(kept.session.user_id);
    siblings?.delete(idHash);
    if (siblings && !siblings.size) byUser.delete(kept.session.user_id);
  }

  function dropUser(userId: string): void {
    for (const idHash of [...(byUser.get(userId) ?? [])]) drop(idHash);
  }

  function keep(idHash: string, found: FoundSession): void {
    if (!found.user || maxEntries <= 0) return;
    drop(idHash);
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) drop(oldest.value);
    }
    entries.set(idHash, found);
    const siblings = byUser.get(found.session.user_id) ?? new Set<string>();
    siblings.add(idHash);
    byUser.set(found.session.user_id, siblings);
  }

  notices.subscribeSessions((changed: ChangedSessions) => {
    if (changed === 'all') {
      entries.clear();
      byUser.clear();
      resets += 1;
      for (const { flight } of flights) flight.stale = true;
      void warm();
      return;
    }
    for (const idHash of changed.sessions) {
      drop(idHash);
      changedWhileWarming?.sessions.add(idHash);
    }
    for (const userId of changed.users) {
      dropUser(userId);
      changedWhileWarming?.users.add(userId);
    }
    const sessions = new Set(changed.sessions);
    for (const { idHash, flight } of flights) if (changed.users.length || sessions.has(idHash)) flight.stale = true;
  });

  const trusted = () => noticesTrusted(() => notices.sessionsCurrent());

  async function warm(): Promise<void> {
    if (!deps.loadAfter || maxEntries <= 0) return;
    if (warming) {
      warmAgain = true;
      return;
    }
    warming = true;
    const epoch = resets;
    try {
      let cursor: string | null = null;
      while (entries.size < maxEntries && epoch === resets && (await trusted())) {
        const changed = { sessions: new Set<string>(), users: new Set<string>() };
        changedWhileWarming = changed;
        const rows = await deps.loadAfter(cursor, WARM_CHUNK).finally(() => {
          changedWhileWarming = null;
        });
        if (epoch !== resets) return;
        for (const row of rows) {
          if (entries.size >= maxEntries) break;
          const idHash = row.session.id_hash;
          if (changed.sessions.has(idHash) || changed.users.has(row.session.user_id) || entries.has(idHash)) continue;
          keep(idHash, row);
          stats.warmed += 1;
        }
        const last = rows.at(-1);
        if (!last || rows.length < WARM_CHUNK) return;
        cursor = last.session.id_hash;
      }
    } catch {
      // A failed warming leaves the cache to fill as sessions are read.
    } finally {
      warming = false;
      warmingPasses += 1;
      if (warmAgain) {
        warmAgain = false;
        void warm();
      }
    }
  }

  async function fetch(idHash: string): Promise<FoundSession | undefined> {
    if (!notices.sessionsCurrent()) {
      stats.bypassed += 1;
      return load(idHash);
    }
    stats.miss += 1;
    const flight = { idHash, flight: { stale: false } };
    flights.add(flight);
    try {
      const found = await load(idHash);
      if (found && !flight.flight.stale) keep(idHash, found);
      return found;
    } finally {
      flights.delete(flight);
    }
  }

  return {
    read(idHash) {
      if (notices.sessionsCurrent()) {
        const kept = entries.get(idHash);
        if (kept) {
          stats.hit += 1;
          return Promise.resolve(kept);
        }
      }
      return fetch(idHash);
    },
    reload: fetch,
    touched(idHash, previous, next) {
      if (entries.get(idHash) === previous) keep(idHash, next);
    },
    forget: drop,
    forgetUser: dropUser,
    stats: () => ({ ...stats, entries: entries.size, warming: cacheWarming(warming, warmingPasses) }),
  };
}
