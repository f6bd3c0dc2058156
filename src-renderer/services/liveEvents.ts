/**
 * Keeps one EventSource open to the live stream of site state. On any error it closes it and
 * reconnects after a growing, jittered delay (1 s doubling up to 30 s), so a restarting server is
 * not hammered by every open tab at once; `recheck()` (focus, visibility) reconnects at once.
 *
 *   const live = connectLiveEvents({ baseUrl: '', onSite, onCount, onUnread, onConnected });
 *   live.watchPetition(12);   // the open petition's count, or null
 *   live.recheck();           // reconnect now if the stream is down
 *   live.reconnect();         // e.g. the signed-in user changed (the server decides at connect time)
 *   live.pause(); live.resume();   // a hidden tab holds no stream (browsers allow few connections per site)
 *   live.close();
 */
import { LIVE_EVENTS, LIVE_RECONNECT_FIRST_MS, LIVE_RECONNECT_MAX_MS } from '../../src-shared/domain/core-constants.ts';
import type { PetitionCount, SiteStatus } from '../../src-shared/domain/schemas.ts';
import { parseCountEvent, parseSiteEvent, parseUnreadEvent } from '../../src-shared/api/live-events.ts';
import { apiStreamSiteEvents } from '../../src-shared/api/visitor-calls.ts';
import { exponentialCeilingMs } from '../../src-shared/rules/retry.ts';

export interface LiveEventsOptions {
  baseUrl: string;
  /** The petition to watch from the start. */
  petitionId?: number | null;
  /** Start without a stream until resume() (a tab opened in the background). */
  paused?: boolean;
  onSite(status: SiteStatus): void;
  onCount(count: PetitionCount): void;
  /** The signed-in member's unread notifications (signed-in streams only). */
  onUnread?(unread: number): void;
  onConnected(connected: boolean): void;
  /** Replaceable in unit tests. */
  createEventSource?: (url: string) => EventSource;
  random?: () => number;
}

export interface LiveEvents {
  watchPetition(petitionId: number | null): void;
  recheck(): void;
  reconnect(): void;
  pause(): void;
  resume(): void;
  close(): void;
}

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = exponentialCeilingMs(attempt + 1, LIVE_RECONNECT_FIRST_MS, LIVE_RECONNECT_MAX_MS);
  // Half fixed, half random: tabs that lost the same server come back spread out.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function connectLiveEvents(options: LiveEventsOptions): LiveEvents {
  const create = options.createEventSource ?? ((url: string) => new EventSource(url, { withCredentials: true }));
  const random = options.random ?? Math.random;
  let source: EventSource | null = null;
  let petitionId: number | null = options.petitionId ?? null;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let paused = options.paused ?? false;
  /** Whether the current source has opened (what onConnected reports). */
  let open = false;

  function disconnect(): void {
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = undefined;
    source?.close();
    source = null;
    if (open) {
      open = false;
      options.onConnected(false);
    }
  }

  function connect(): void {
    disconnect();
    if (closed || paused) return;
    const current = create(apiStreamSiteEvents(options, petitionId));
    source = current;
    current.onopen = () => {
      attempt = 0;
      if (source !== current || open) return;
      open = true;
      options.onConnected(true);
    };
    current.addEventListener(LIVE_EVENTS.site, (event) => {
      const status = parseSiteEvent((event as MessageEvent<string>).data);
      if (status) options.onSite(status);
    });
    current.addEventListener(LIVE_EVENTS.count, (event) => {
      const count = parseCountEvent((event as MessageEvent<string>).data);
      if (count) options.onCount(count);
    });
    current.addEventListener(LIVE_EVENTS.unread, (event) => {
      const unread = parseUnreadEvent((event as MessageEvent<string>).data);
      if (unread !== null) options.onUnread?.(unread);
    });
    current.onerror = () => {
      // Our backoff rather than the browser's fixed retry, which also gives up for good on an HTTP error.
      if (source !== current) return;
      disconnect();
      retryTimer = setTimeout(connect, reconnectDelay(attempt, random));
      attempt += 1;
    };
  }

  connect();
  return {
    pause() {
      paused = true;
      disconnect();
    },
    resume() {
      if (!paused) return;
      paused = false;
      attempt = 0;
      connect();
    },
    watchPetition(id) {
      if (id === petitionId) return;
      petitionId = id;
      connect();
    },
    recheck() {
      if (!source) connect();
    },
    reconnect() {
      connect();
    },
    close() {
      closed = true;
      disconnect();
    },
  };
}
