/**
 * One publisher per process for the live stream: it reads the site state (and the counts of the
 * petitions open pages are watching) once per tick and writes the same preformatted frame to every
 * subscriber, so an open tab costs a socket and a set entry, never a database query of its own.
 *
 * Maintenance is a state, not an error: everyone keeps receiving `site` events while it is on, but
 * petition counts (API data that answers 503 during maintenance) reach only exempt subscribers (the
 * administrator) until it is switched off; the others then receive the count they missed.
 *
 * Signed-in streams also carry the member's unread count (`unread` events, docs/notifications.md#live-unread-count).
 * Each tick reads the newest event id (one key read); only when it moved does the publisher ask which
 * connected members the new events reach and recount theirs, so idle members cost nothing per tick
 * and a new event on any node reaches every node's streams on its next tick.
 */
import { LIVE_EVENTS, LIVE_HEARTBEAT_MS, LIVE_TICK_MS } from '../../src-shared/domain/constants.ts';
import type { PetitionCount, SiteStatus } from '../../src-shared/domain/schemas.ts';

export interface LiveSubscriber {
  /** The petition whose count this page shows, if any. */
  readonly petitionId: number | null;
  /** Sees petition data during maintenance (the administrator). */
  readonly exempt: boolean;
  /** The signed-in member whose unread count this stream carries (null or absent: nobody). */
  readonly userId?: string | null;
  /** Writes a chunk to the stream; must not throw. */
  write(chunk: string): void;
  /** Ends the stream (server shutting down). */
  end(): void;
}

/** Where members' unread counts come from (feed/live-unread.ts). */
export interface UnreadSource {
  /** The newest event id (0: none). Ids are committed in order, so a higher one means new events. */
  latestEventId(): Promise<number>;
  /** Of `userIds`, those the events in (afterId, upToId] may reach (a few extra are harmless). */
  usersReached(afterId: number, upToId: number, userIds: readonly string[]): Promise<string[]>;
  unreadCount(userId: string): Promise<number>;
}

export interface LivePublisherDeps {
  readSiteState(): Promise<SiteStatus>;
  readCounts(ids: readonly number[]): Promise<PetitionCount[]>;
  unread?: UnreadSource;
  tickMs?: number;
  heartbeatMs?: number;
}

export interface LivePublisherStats {
  subscribers: number;
  watchedPetitions: number;
  signedInMembers: number;
  unreadRecounts: number;
  ticks: number;
  framesWritten: number;
}

interface SubscriberState {
  /** The last count frame this subscriber received (identity comparison: frames are shared strings). */
  lastCountFrame: string | null;
  lastUnreadFrame: string | null;
}

/** New events past which every connected member is recounted instead of asking whom they reach. */
const MANY_NEW_EVENTS = 200;
/** Members recounted at once (PostgreSQL answers them on several pooled connections). */
const RECOUNTS_IN_PARALLEL = 4;

export function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const HEARTBEAT_FRAME = ': keep-alive\n\n';

export function createLivePublisher(deps: LivePublisherDeps) {
  const tickMs = deps.tickMs ?? LIVE_TICK_MS;
  const heartbeatMs = deps.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const subscribers = new Map<LiveSubscriber, SubscriberState>();
  const byPetition = new Map<number, Set<LiveSubscriber>>();
  const byUser = new Map<string, Set<LiveSubscriber>>();
  const unreadFrames = new Map<string, string>();
  /** Members to recount on the next tick (just connected, or they changed something on this node). */
  const dirtyUsers = new Set<string>();
  let lastEventId: number | null = null;
  let site: SiteStatus | null = null;
  let siteFrame = '';
  const countFrames = new Map<number, { key: string; frame: string }>();
  let tickTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  const stats = { ticks: 0, framesWritten: 0, unreadRecounts: 0 };
  /** Replaced by the app with its logger; a failed read is reported and the next tick tries again. */
  let reportError: (error: unknown) => void = (error) => console.error('live stream tick failed', error);

  function send(subscriber: LiveSubscriber, chunk: string): void {
    stats.framesWritten += 1;
    subscriber.write(chunk);
  }

  function mayReceiveCounts(subscriber: LiveSubscriber): boolean {
    return subscriber.exempt || site?.maintenance === false;
  }

  function sendCountIfNew(subscriber: LiveSubscriber): void {
    if (subscriber.petitionId === null || !mayReceiveCounts(subscriber)) return;
    const current = countFrames.get(subscriber.petitionId)?.frame;
    const state = subscribers.get(subscriber);
    if (!current || !state || state.lastCountFrame === current) return;
    state.lastCountFrame = current;
    send(subscriber, current);
  }

  function sendUnreadIfNew(subscriber: LiveSubscriber): void {
    if (!subscriber.userId || !mayReceiveCounts(subscriber)) return;
    const current = unreadFrames.get(subscriber.userId);
    const state = subscribers.get(subscriber);
    if (!current || !state || state.lastUnreadFrame === current) return;
    state.lastUnreadFrame = current;
    send(subscriber, current);
  }

  async function recount(userIds: readonly string[], source: UnreadSource): Promise<void> {
    const queue = [...userIds];
    const worker = async () => {
      for (let userId = queue.shift(); userId !== undefined; userId = queue.shift()) {
        if (!byUser.has(userId)) continue;
        stats.unreadRecounts += 1;
        const unread = await source.unreadCount(userId);
        const next = frame(LIVE_EVENTS.unread, { unread });
        if (unreadFrames.get(userId) === next) continue;
        unreadFrames.set(userId, next);
        for (const subscriber of byUser.get(userId) ?? []) sendUnreadIfNew(subscriber);
      }
    };
    await Promise.all(Array.from({ length: Math.min(RECOUNTS_IN_PARALLEL, queue.length) }, worker));
  }

  /** Members whose count may have changed since the last tick: the dirty ones, and those new events reach. */
  async function refreshUnread(source: UnreadSource): Promise<void> {
    const latest = await source.latestEventId();
    const users = new Set(dirtyUsers);
    dirtyUsers.clear();
    const connected = [...byUser.keys()];
    if (lastEventId !== null && latest !== lastEventId) {
      // Fewer events than before (a petition deleted with its events) or a burst: recount everyone.
      const reached =
        latest < lastEventId || latest - lastEventId > MANY_NEW_EVENTS ? connected : await source.usersReached(lastEventId, latest, connected);
      for (const userId of reached) users.add(userId);
    }
    lastEventId = latest;
    if (users.size) await recount([...users], source);
  }

  function watchedIds(): number[] {
    const ids: number[] = [];
    for (const [id, watchers] of byPetition) {
      for (const watcher of watchers) {
        if (mayReceiveCounts(watcher)) {
          ids.push(id);
          break;
        }
      }
    }
    return ids;
  }

  async function runTick(): Promise<void> {
    stats.ticks += 1;
    const next = await deps.readSiteState();
    const siteChanged = !site || site.maintenance !== next.maintenance || site.inSession !== next.inSession;
    if (siteChanged) {
      // Assigned and fanned out in one synchronous step: a subscriber joining later reads `site` itself.
      site = next;
      siteFrame = frame(LIVE_EVENTS.site, next);
      for (const subscriber of subscribers.keys()) send(subscriber, siteFrame);
    }
    const ids = watchedIds();
    if (ids.length > 0) {
      const counts = await deps.readCounts(ids);
      for (const count of counts) {
        const key = `${count.signatures}:${count.status}`;
        if (countFrames.get(count.id)?.key === key) continue;
        countFrames.set(count.id, { key, frame: frame(LIVE_EVENTS.count, count) });
        for (const watcher of byPetition.get(count.id) ?? []) sendCountIfNew(watcher);
      }
    }
    if (deps.unread && byUser.size > 0) await refreshUnread(deps.unread);
    // Maintenance just ended: pages that were held back catch up even if their figures did not change this tick.
    if (siteChanged && !next.maintenance) {
      for (const subscriber of subscribers.keys()) {
        sendCountIfNew(subscriber);
        sendUnreadIfNew(subscriber);
      }
    }
  }

  function tick(): Promise<void> {
    // Ticks never overlap: a slow database delays the next one instead of piling reads up.
    ticking ??= runTick()
      .catch((error: unknown) => reportError(error))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  }

  function start(): void {
    if (tickTimer) return;
    tickTimer = setInterval(() => void tick(), tickMs);
    heartbeatTimer = setInterval(() => {
      for (const subscriber of subscribers.keys()) send(subscriber, HEARTBEAT_FRAME);
    }, heartbeatMs);
    void tick();
  }

  function stop(): void {
    if (tickTimer) clearInterval(tickTimer);
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    tickTimer = heartbeatTimer = null;
    // With nobody listening the state goes stale; the next subscriber starts from a fresh read.
    site = null;
    countFrames.clear();
    unreadFrames.clear();
    lastEventId = null;
  }

  return {
    subscribe(subscriber: LiveSubscriber): () => void {
      subscribers.set(subscriber, { lastCountFrame: null, lastUnreadFrame: null });
      if (subscriber.petitionId !== null) {
        let watchers = byPetition.get(subscriber.petitionId);
        if (!watchers) byPetition.set(subscriber.petitionId, (watchers = new Set()));
        watchers.add(subscriber);
      }
      const userId = deps.unread ? (subscriber.userId ?? null) : null;
      if (userId !== null) {
        let streams = byUser.get(userId);
        if (!streams) byUser.set(userId, (streams = new Set()));
        streams.add(subscriber);
        // Another tab of the member already has a fresh count; a first tab gets one on the next tick.
        if (!unreadFrames.has(userId)) dirtyUsers.add(userId);
      }
      if (site) {
        send(subscriber, siteFrame);
        sendCountIfNew(subscriber);
        sendUnreadIfNew(subscriber);
      }
      if (!tickTimer) start();
      else if ((subscriber.petitionId !== null && !countFrames.has(subscriber.petitionId)) || (userId !== null && dirtyUsers.has(userId))) void tick();

      return () => {
        if (!subscribers.delete(subscriber)) return;
        if (subscriber.petitionId !== null) {
          const watchers = byPetition.get(subscriber.petitionId);
          watchers?.delete(subscriber);
          if (watchers?.size === 0) {
            byPetition.delete(subscriber.petitionId);
            countFrames.delete(subscriber.petitionId);
          }
        }
        if (subscriber.userId) {
          const streams = byUser.get(subscriber.userId);
          streams?.delete(subscriber);
          if (streams?.size === 0) {
            byUser.delete(subscriber.userId);
            unreadFrames.delete(subscriber.userId);
            dirtyUsers.delete(subscriber.userId);
          }
        }
        if (subscribers.size === 0) stop();
      };
    },

    /** The member changed their read state on this node: recount theirs now rather than at the next new event. */
    refreshMember(userId: string): Promise<void> {
      if (!byUser.has(userId)) return Promise.resolve();
      dirtyUsers.add(userId);
      return tick();
    },

    /** Reads the state now rather than at the next tick (e.g. right after this process changed it). */
    poke(): Promise<void> {
      return subscribers.size > 0 ? tick() : Promise.resolve();
    },

    /** Ends every stream (server shutting down) and stops the timers. */
    close(): void {
      for (const subscriber of subscribers.keys()) subscriber.end();
      subscribers.clear();
      byPetition.clear();
      byUser.clear();
      dirtyUsers.clear();
      stop();
    },

    setErrorReporter(report: (error: unknown) => void): void {
      reportError = report;
    },

    stats(): LivePublisherStats {
      return { subscribers: subscribers.size, watchedPetitions: byPetition.size, signedInMembers: byUser.size, ...stats };
    },
  };
}

export type LivePublisher = ReturnType<typeof createLivePublisher>;
