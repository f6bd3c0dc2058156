/**
 * One publisher per process for the staff event stream (docs/console-team.md#the-staff-event-stream),
 * built like the site's live stream (site/live-publisher.ts): while anyone listens it reads the
 * presence table every tick and the queue summary every few seconds, for all streams together,
 * and writes a frame only when it changed. Presence lives in the database, so a node sees another
 * node's staff at its next tick; a write on this node pokes it at once.
 */
import { LIVE_HEARTBEAT_MS, LIVE_TICK_MS } from '../../src-shared/domain/constants.ts';
import { QUEUE_SUMMARY_TICK_MS, STAFF_EVENTS } from '../../src-shared/domain/team-constants.ts';
import type { PresenceEntry, QueueSummary } from '../../src-shared/domain/team-schemas.ts';
import { frame, HEARTBEAT_FRAME } from '../site/live-publisher.ts';

export interface StaffSubscriber {
  /** Writes a chunk to the stream; must not throw. */
  write(chunk: string): void;
  /** Ends the stream (server shutting down). */
  end(): void;
}

export interface StaffEventPublisherDeps {
  readPresence(): Promise<PresenceEntry[]>;
  readQueueSummary(): Promise<QueueSummary>;
  tickMs?: number;
  summaryEveryMs?: number;
  heartbeatMs?: number;
}

export function createStaffEventPublisher(deps: StaffEventPublisherDeps) {
  const tickMs = deps.tickMs ?? LIVE_TICK_MS;
  const summaryEveryMs = deps.summaryEveryMs ?? QUEUE_SUMMARY_TICK_MS;
  const heartbeatMs = deps.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const subscribers = new Set<StaffSubscriber>();
  let presenceFrame: string | null = null;
  let queuesFrame: string | null = null;
  let summaryReadAt = 0;
  let summaryWanted = false;
  let tickTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let again = false;
  const stats = { ticks: 0, framesWritten: 0 };
  let reportError: (error: unknown) => void = (error) => console.error('staff event tick failed', error);

  function fanOut(chunk: string): void {
    for (const subscriber of subscribers) {
      stats.framesWritten += 1;
      subscriber.write(chunk);
    }
  }

  async function runTick(): Promise<void> {
    stats.ticks += 1;
    const presence = frame(STAFF_EVENTS.presence, { entries: await deps.readPresence() });
    if (presence !== presenceFrame) {
      presenceFrame = presence;
      fanOut(presence);
    }
    if (summaryWanted || Date.now() - summaryReadAt >= summaryEveryMs) {
      summaryWanted = false;
      summaryReadAt = Date.now();
      const queues = frame(STAFF_EVENTS.queues, await deps.readQueueSummary());
      if (queues !== queuesFrame) {
        queuesFrame = queues;
        fanOut(queues);
      }
    }
  }

  function tick(): Promise<void> {
    // Never overlapping; a poke during a tick runs one more right after it, so no write is missed.
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = runTick()
      .catch((error: unknown) => reportError(error))
      .finally(() => {
        ticking = null;
        if (again && subscribers.size > 0) {
          again = false;
          void tick();
        }
      });
    return ticking;
  }

  function start(): void {
    if (tickTimer) return;
    tickTimer = setInterval(() => void tick(), tickMs);
    heartbeatTimer = setInterval(() => fanOut(HEARTBEAT_FRAME), heartbeatMs);
    summaryWanted = true;
    void tick();
  }

  function stop(): void {
    if (tickTimer) clearInterval(tickTimer);
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    tickTimer = heartbeatTimer = null;
    presenceFrame = queuesFrame = null;
  }

  return {
    subscribe(subscriber: StaffSubscriber): () => void {
      subscribers.add(subscriber);
      for (const current of [presenceFrame, queuesFrame]) {
        if (current) {
          stats.framesWritten += 1;
          subscriber.write(current);
        }
      }
      start();
      return () => {
        if (subscribers.delete(subscriber) && subscribers.size === 0) stop();
      };
    },

    /** Reads now rather than at the next tick (this process just changed presence, or a queue). */
    poke(options: { queues?: boolean } = {}): Promise<void> {
      if (subscribers.size === 0) return Promise.resolve();
      if (options.queues) summaryWanted = true;
      return tick();
    },

    close(): void {
      for (const subscriber of subscribers) subscriber.end();
      subscribers.clear();
      stop();
    },

    setErrorReporter(report: (error: unknown) => void): void {
      reportError = report;
    },

    stats() {
      return { subscribers: subscribers.size, ...stats };
    },
  };
}

export type StaffEventPublisher = ReturnType<typeof createStaffEventPublisher>;
