/**
 * The console's side of working as a team (docs/console-team.md#presence): it tells the backend
 * where this console is (a petition, and whether its response or debate form is open), repeats it
 * as a heartbeat, and keeps the staff event stream open to learn where everyone else is and how
 * the queues stand. The renderer sees the result as `presence:changed`; `connected: false` means
 * the console cannot see colleagues or their claims right now (offline, signed out, stream down).
 *
 * Plain Node, beside the outbox: presence is not a staff action and is never queued. A change the
 * backend could not take is simply sent again with the next heartbeat.
 */
import { randomBytes } from 'node:crypto';
import type { PresenceView } from '../../../src-shared/console/ipc-contract.ts';
import { LIVE_RECONNECT_FIRST_MS, LIVE_RECONNECT_MAX_MS } from '../../../src-shared/domain/constants.ts';
import type { PresenceActivity } from '../../../src-shared/domain/team-constants.ts';
import { PRESENCE_HEARTBEAT_MS, STAFF_EVENTS, STAFF_EVENTS_PATH } from '../../../src-shared/domain/team-constants.ts';
import { PresenceListSchema, QueueSummarySchema } from '../../../src-shared/domain/team-schemas.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../../src-shared/domain/constants.ts';
import { exponentialCeilingMs } from '../../../src-shared/rules/retry.ts';
import type { AuthPort, EventSink } from '../ports.ts';

const QUEUE_SUMMARY_READ_PATH = '/api/staff/queue-summary';
/** A presence call that has not answered by then is dropped; the next heartbeat tries again. */
const CALL_TIMEOUT_MS = 10_000;

export interface PresenceSpot {
  petitionId: number | null;
  activity: PresenceActivity;
  renewClaim: boolean;
}

export interface PresenceLinkOptions {
  apiBaseUrl: string;
  auth: AuthPort;
  events: EventSink;
  fetch?: typeof fetch;
  heartbeatMs?: number;
  log?: (message: string) => void;
  /**
   * A read through the console's cache (`data:read`): the queue summary as last read, so the
   * queues' targets are known offline too, before the stream brings a live one.
   */
  readCached?: (path: string) => Promise<unknown>;
}

export interface PresenceLink {
  /** This console's presence client id (random per run). */
  readonly clientId: string;
  view(): PresenceView;
  /** Where the console is now; sent at once and then as a heartbeat while on a petition. */
  set(spot: PresenceSpot): Promise<void>;
  /** Opens the stream (when signed in) and follows sign-in and sign-out. */
  start(): void;
  /** Leaves (best effort) before the session ends, so colleagues see it at once rather than in a minute. */
  leave(): Promise<void>;
  close(): void;
}

/** Splits a server-sent event stream into its events (`event:` name and `data:` text). */
export function parseEventBlock(block: string): { event: string; data: string } | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return data.length ? { event, data: data.join('\n') } : null;
}

export function createPresenceLink(options: PresenceLinkOptions): PresenceLink {
  const doFetch = options.fetch ?? ((...request: Parameters<typeof fetch>) => fetch(...request));
  const base = options.apiBaseUrl.replace(/\/$/, '');
  const heartbeatMs = options.heartbeatMs ?? PRESENCE_HEARTBEAT_MS;
  const log = options.log ?? (() => undefined);
  const clientId = randomBytes(16).toString('base64url');
  let view: PresenceView = { connected: false, unreachable: false, entries: [], queues: null };
  let spot: PresenceSpot = { petitionId: null, activity: 'viewing', renewClaim: false };
  /** What the backend last accepted (null: nothing, or not known). */
  let sent: string | null = null;
  let sending: Promise<void> = Promise.resolve();
  let heartbeat: NodeJS.Timeout | null = null;
  let stream: AbortController | null = null;
  let streamToken: string | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let closed = false;
  let unsubscribe: (() => void) | null = null;
  /** Whether the current connection delivered an event. */
  let received = false;

  function emit(next: PresenceView): void {
    view = next;
    options.events.emit('presence:changed', view);
  }

  /** `unreachable`: the backend did not answer at all (offline), rather than refusing or ending the stream. */
  function setConnected(connected: boolean, unreachable = false): void {
    if (view.connected === connected && view.unreachable === unreachable && (connected || view.entries.length === 0)) return;
    // Offline, what was seen is no longer known: show nothing rather than stale claims.
    emit(connected ? { ...view, connected, unreachable: false } : { connected, unreachable, entries: [], queues: view.queues });
  }

  function headers(token: string): Record<string, string> {
    return { authorization: `Bearer ${token}`, [CSRF_HEADER]: CSRF_HEADER_VALUE };
  }

  /** Sends the current spot (PUT, or DELETE when on no petition); a failure leaves it for the next heartbeat. */
  async function send(force: boolean): Promise<void> {
    const session = options.auth.current();
    const wanted = spot;
    const key = JSON.stringify([wanted.petitionId, wanted.activity]);
    if (!session || (!force && !wanted.renewClaim && key === sent)) return;
    const url = `${base}/api/staff/presence/${clientId}`;
    try {
      const response =
        wanted.petitionId === null
          ? await doFetch(url, { method: 'DELETE', headers: headers(session.token), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })
          : await doFetch(url, {
              method: 'PUT',
              headers: { ...headers(session.token), 'content-type': 'application/json' },
              body: JSON.stringify({ petitionId: wanted.petitionId, activity: wanted.activity, renewClaim: wanted.renewClaim }),
              signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
            });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 401) options.auth.reportUnauthorized(session.token);
      sent = response.ok ? key : null;
    } catch {
      sent = null;
    }
  }

  function queueSend(force: boolean): Promise<void> {
    sending = sending.then(() => send(force));
    return sending;
  }

  function scheduleHeartbeat(): void {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    if (spot.petitionId === null || closed) return;
    heartbeat = setInterval(() => {
      spot = { ...spot, renewClaim: false };
      void queueSend(true);
    }, heartbeatMs);
    heartbeat.unref();
  }

  function stopStream(): void {
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = null;
    stream?.abort();
    stream = null;
    streamToken = null;
  }

  function deliver(block: string): void {
    const parsed = parseEventBlock(block);
    if (!parsed) return;
    let data: unknown;
    try {
      data = JSON.parse(parsed.data);
    } catch {
      return;
    }
    received = true;
    if (parsed.event === STAFF_EVENTS.presence) {
      const list = PresenceListSchema.safeParse(data);
      if (list.success) emit({ ...view, connected: true, unreachable: false, entries: list.data.entries });
    } else if (parsed.event === STAFF_EVENTS.queues) {
      const summary = QueueSummarySchema.safeParse(data);
      if (summary.success) emit({ ...view, connected: true, unreachable: false, queues: summary.data });
    }
  }

  /** One connection: resolves when it ends; 'again' (ended by the server: reconnect at once), 'retry', 'unreachable' or 'stop'. */
  async function readStream(token: string, controller: AbortController): Promise<'again' | 'retry' | 'unreachable' | 'stop'> {
    let response: Response;
    try {
      response = await doFetch(`${base}${STAFF_EVENTS_PATH}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
    } catch {
      return 'unreachable';
    }
    if (response.status === 401) {
      options.auth.reportUnauthorized(token);
      return 'stop';
    }
    // Not staff (any more): nothing to see until someone else signs in.
    if (response.status === 403) return 'stop';
    if (!response.ok || !response.body) return 'retry';
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'again';
        buffer += value.replace(/\r/g, '');
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          deliver(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // The connection broke mid-stream: most often the network went away.
      return 'unreachable';
    }
  }

  /** The last queue summary the cache holds (offline: as last read), until the stream brings a live one. */
  async function readCachedSummary(): Promise<void> {
    if (!options.readCached || !options.auth.current()) return;
    try {
      const summary = QueueSummarySchema.safeParse(await options.readCached(QUEUE_SUMMARY_READ_PATH));
      if (summary.success && !view.queues) emit({ ...view, queues: summary.data });
    } catch {
      // Nothing cached and nobody answering: the defaults apply until the stream answers.
    }
  }

  function openStream(): void {
    const session = options.auth.current();
    if (closed || !session) {
      stopStream();
      setConnected(false);
      return;
    }
    if (stream && streamToken === session.token) return;
    stopStream();
    const controller = new AbortController();
    stream = controller;
    streamToken = session.token;
    const loop = async (): Promise<void> => {
      let failures = 0;
      while (!controller.signal.aborted) {
        received = false;
        const outcome = await readStream(session.token, controller);
        if (controller.signal.aborted) return;
        if (outcome === 'stop') {
          setConnected(false);
          return;
        }
        // A connection that delivered something was healthy: its end starts the count afresh.
        if (received) failures = 0;
        // The server ends streams now and then (access is checked again): straight back, still connected.
        if (outcome === 'again' && failures === 0) {
          failures = 1;
          continue;
        }
        setConnected(false, outcome === 'unreachable');
        failures += 1;
        const delay = exponentialCeilingMs(failures, LIVE_RECONNECT_FIRST_MS, LIVE_RECONNECT_MAX_MS) * (0.5 + Math.random() / 2);
        await new Promise<void>((resolve) => {
          reconnectTimer = setTimeout(resolve, delay);
          reconnectTimer.unref();
        });
        // A presence the backend could not take while it was away goes again now.
        if (spot.petitionId !== null) void queueSend(true);
      }
    };
    void loop().catch((error: unknown) => log(`staff event stream stopped: ${String(error)}`));
  }

  return {
    clientId,
    view: () => view,

    async set(next) {
      spot = next;
      scheduleHeartbeat();
      await queueSend(false);
    },

    start() {
      unsubscribe = options.auth.onChange(() => {
        sent = null;
        void readCachedSummary();
        openStream();
        if (options.auth.current() && spot.petitionId !== null) void queueSend(true);
      });
      void readCachedSummary();
      openStream();
    },

    async leave() {
      spot = { petitionId: null, activity: 'viewing', renewClaim: false };
      scheduleHeartbeat();
      await queueSend(true);
    },

    close() {
      closed = true;
      unsubscribe?.();
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      stopStream();
    },
  };
}
