/**
 * How a PostgreSQL node hears that petitions changed, whichever node or process changed them
 * (docs/operations.md#the-petition-read-cache). Migration 0018 makes every UPDATE or DELETE of
 * `petitions` send one notice on PETITION_CHANGES_CHANNEL, at commit, naming the changed ids. Each
 * node listens on a connection of its own, outside the pool, and tells its subscribers (the petition
 * cache) what to forget.
 *
 * A cache that trusts these notices must know when it may not: notices sent while the connection was
 * down are lost, so every (re)connection tells subscribers to forget everything, and `current()` is
 * false until the connection listens again. A connection can also stall without failing, so the node
 * sends itself a notice (a fence) every HEARTBEAT_MS on the same connection; notices arrive in commit
 * order, so when a fence comes back, every change committed before it was sent has been heard.
 * `current()` stays true only while the last fence that came back was sent less than FRESHNESS_MS
 * ago: a stale read after another node's change lasts at most that long, whatever happens to the
 * connection. This node's own writes (the pool calls `fence()` after each commit) make `current()`
 * false until their notices have arrived, so a client never reads its own change back stale.
 *
 * The same connection listens for session and user changes (migration 0023, SESSION_CHANGES_CHANNEL),
 * for the session cache (sessions/session-cache.ts, docs/operations.md#the-session-cache). Notices of
 * both channels arrive in one commit order, so the same fences vouch for both. That cache asks
 * `sessionsCurrent()`, which waits only for this node's own writes to sessions and users
 * (`fenceSessions()`): the signing batches commit many times a second and must not keep it from
 * being trusted.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { exponentialCeilingMs } from '../../src-shared/rules/retry.ts';
import type { Db } from './schema.ts';

export const PETITION_CHANGES_CHANNEL = 'petitions_changed';
/** Changed or deleted sessions and users (migration 0023): payloads as parseChangedSessions reads them. */
export const SESSION_CHANGES_CHANNEL = 'sessions_changed';
/** Notices naming ids carry them comma-separated; this one means "anything may have changed". */
export const EVERYTHING_CHANGED = '*';
/** Longer payloads are sent as EVERYTHING_CHANGED: a notice's payload holds under 8,000 bytes. */
export const MAX_NOTICE_PAYLOAD = 7_000;
/** The longest another node's change may stay unseen here (the bound: 1 s). */
export const FRESHNESS_MS = 1_000;
const HEARTBEAT_MS = 250;
/** A connection whose fences stopped coming back for this long is dropped and opened again. */
const STALLED_MS = 3_000;
const RECONNECT_BASE_MS = 100;
const RECONNECT_CAP_MS = 5_000;
const FENCE_PREFIX = 'fence:';

/** How long a cache's warming waits for its notices to be trusted before a chunk, before it gives up until the next start. */
const WARM_PATIENCE_MS = 5_000;

/**
 * Resolves true once `current()` holds (the notices a cache relies on may be trusted), false if it does not
 * within WARM_PATIENCE_MS: the petition and session caches wait on it before each chunk they warm.
 */
export async function noticesTrusted(current: () => boolean): Promise<boolean> {
  const started = performance.now();
  while (!current()) {
    if (performance.now() - started > WARM_PATIENCE_MS) return false;
    await new Promise((resolve) => setTimeout(resolve, 50).unref());
  }
  return true;
}

export type ChangedPetitions = readonly number[] | 'all';
/** Sessions (by id hash) and users (by id) whose cached sessions are to be forgotten, or 'all'. */
export type ChangedSessions = { readonly sessions: readonly string[]; readonly users: readonly string[] } | 'all';

export interface ChangeNoticeStats {
  /** Whether the listening connection is open and listening. */
  listening: boolean;
  /** Times it was (re)opened: each one told subscribers to forget everything. */
  connections: number;
  notices: number;
}

export interface ChangeNotices {
  /** Whether every change committed more than FRESHNESS_MS ago, and every write of this node, has been heard. */
  current(): boolean;
  /** This node just committed a write: not current until that write's notices have arrived. */
  fence(): void;
  /** Called with the petitions that changed, or 'all' when the node may have missed notices; the first subscriber starts listening. */
  subscribe(listener: (changed: ChangedPetitions) => void): void;
  /** As `current()`, but waiting only for this node's own writes to sessions and users. */
  sessionsCurrent(): boolean;
  /** This node just committed a write to sessions or users. */
  fenceSessions(): void;
  /** Called with the sessions and users that changed, or 'all'; starts listening as `subscribe` does. */
  subscribeSessions(listener: (changed: ChangedSessions) => void): void;
  stats(): ChangeNoticeStats;
  close(): Promise<void>;
}

/**
 * Announces, at the transaction's commit, that these petitions changed, as migration 0018's trigger
 * does for an UPDATE or DELETE of them: for writes that change what a petition page shows without
 * touching its row (anonymised signers, whose first signers PostgreSQL reads from the signatures).
 */
export async function announcePetitionsChanged(trx: Db, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  const named = ids.join(',');
  await sql`SELECT pg_notify(${PETITION_CHANGES_CHANNEL}, ${named.length > MAX_NOTICE_PAYLOAD ? EVERYTHING_CHANGED : named})`.execute(trx);
}

/** Reads a notice's payload: the ids it names, or 'all'. */
export function parseChangedPetitions(payload: string): ChangedPetitions {
  if (payload === EVERYTHING_CHANGED) return 'all';
  const ids = payload.split(',').map(Number);
  return ids.every((id) => Number.isInteger(id)) ? ids : 'all';
}

/**
 * Reads a session notice's payload: items `s<id hash>` (a session) and `u<user id>` (every session
 * of that user), comma-separated, or '*'. Anything else means everything.
 */
export function parseChangedSessions(payload: string): ChangedSessions {
  if (payload === EVERYTHING_CHANGED) return 'all';
  const sessions: string[] = [];
  const users: string[] = [];
  for (const item of payload.split(',')) {
    if (item.startsWith('s') && item.length > 1) sessions.push(item.slice(1));
    else if (item.startsWith('u') && item.length > 1) users.push(item.slice(1));
    else return 'all';
  }
  return { sessions, users };
}

/** The server process behind a connection (pg sets it on connecting; its typings leave it out). */
const backendPid = (connection: pg.Client) => (connection as unknown as { processID: number | null }).processID;

export function createChangeNotices(url: string, options: { applicationName?: string } = {}): ChangeNotices {
  const listeners: ((changed: ChangedPetitions) => void)[] = [];
  const sessionListeners: ((changed: ChangedSessions) => void)[] = [];
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  const stats = { connections: 0, notices: 0 };
  /** Fences sent (by number) and when; the newest that came back; the newest this node's writes wait for. */
  let fenceSeq = 0;
  const fenceSentAt = new Map<number, number>();
  let heardSeq = 0;
  let heardSentAt = -Infinity;
  let awaitedSeq = 0;
  let awaitedSessionSeq = 0;
  let listeningSince = 0;

  const tell = (changed: ChangedPetitions) => {
    for (const listener of listeners) listener(changed);
    if (changed === 'all') for (const listener of sessionListeners) listener('all');
  };

  /** One fence query at a time per connection (pg queues overlapping queries, and warns); more wait for it. */
  let fenceInFlight = false;
  let fenceWanted = false;

  /** Sends a fence now, or right after the one in flight; returns the number it will carry. */
  function sendFence(connection: pg.Client): number {
    if (fenceInFlight) {
      fenceWanted = true;
      return fenceSeq + 1;
    }
    const seq = ++fenceSeq;
    fenceInFlight = true;
    fenceSentAt.set(seq, performance.now());
    connection.query('SELECT pg_notify($1, $2)', [PETITION_CHANGES_CHANNEL, `${FENCE_PREFIX}${seq}`]).then(
      () => {
        fenceInFlight = false;
        if (fenceWanted && connection === client) {
          fenceWanted = false;
          sendFence(connection);
        }
      },
      () => {
        fenceInFlight = false;
        lost(connection);
      },
    );
    return seq;
  }

  function heard(connection: pg.Client, message: pg.Notification): void {
    const payload = message.payload ?? EVERYTHING_CHANGED;
    if (payload.startsWith(FENCE_PREFIX)) {
      // Other nodes' fences pass by on the same channel; only this connection's own count.
      if (message.processId !== backendPid(connection)) return;
      const seq = Number(payload.slice(FENCE_PREFIX.length));
      const sentAt = fenceSentAt.get(seq);
      if (sentAt === undefined || seq <= heardSeq) return;
      heardSeq = seq;
      heardSentAt = sentAt;
      for (const sent of fenceSentAt.keys()) if (sent <= seq) fenceSentAt.delete(sent);
      return;
    }
    stats.notices += 1;
    if (message.channel === SESSION_CHANGES_CHANNEL) {
      const changed = parseChangedSessions(payload);
      for (const listener of sessionListeners) listener(changed);
      return;
    }
    tell(parseChangedPetitions(payload));
  }

  /** The connection failed or stalled: forget everything, stop trusting, open another. */
  function lost(connection: pg.Client): void {
    if (connection !== client) return;
    client = null;
    listening = false;
    fenceInFlight = false;
    fenceWanted = false;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    connection.removeAllListeners('notification');
    // end() may wait on a dead socket; nothing is waited for.
    void connection.end().catch(() => {});
    tell('all');
    schedule();
  }

  function schedule(): void {
    if (closed || reconnectTimer) return;
    failures += 1;
    const ceiling = exponentialCeilingMs(failures, RECONNECT_BASE_MS, RECONNECT_CAP_MS);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void connect();
    }, ceiling / 2 + Math.random() * (ceiling / 2));
    reconnectTimer.unref();
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const connection = new pg.Client({ connectionString: url, application_name: options.applicationName });
    client = connection;
    connection.on('error', () => lost(connection));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => heard(connection, message));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${PETITION_CHANGES_CHANNEL}`);
      await connection.query(`LISTEN ${SESSION_CHANGES_CHANNEL}`);
    } catch {
      lost(connection);
      return;
    }
    if (connection !== client || closed) return;
    failures = 0;
    stats.connections += 1;
    listening = true;
    listeningSince = performance.now();
    // Whatever changed while nobody listened is unknown: subscribers start again from nothing.
    tell('all');
    sendFence(connection);
    heartbeat = setInterval(() => {
      if (performance.now() - Math.max(heardSentAt, listeningSince) > STALLED_MS) lost(connection);
      else sendFence(connection);
    }, HEARTBEAT_MS);
    heartbeat.unref();
  }

  /** Listening starts with the first subscriber of either kind. */
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void connect();
  };

  return {
    current() {
      return listening && heardSeq >= awaitedSeq && performance.now() - heardSentAt < FRESHNESS_MS;
    },
    fence() {
      if (client && listening) awaitedSeq = sendFence(client);
    },
    sessionsCurrent() {
      return listening && heardSeq >= awaitedSessionSeq && performance.now() - heardSentAt < FRESHNESS_MS;
    },
    fenceSessions() {
      if (client && listening) awaitedSessionSeq = sendFence(client);
    },
    subscribe(listener) {
      listeners.push(listener);
      // Listening starts with the first subscriber: a process that opens the database only to run
      // a script (migrations, a backup) holds no extra connection.
      start();
    },
    subscribeSessions(listener) {
      sessionListeners.push(listener);
      start();
    },
    stats: () => ({ listening, ...stats }),
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (heartbeat) clearInterval(heartbeat);
      const connection = client;
      client = null;
      listening = false;
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => {});
        await connection.end().catch(() => {});
      }
    },
  };
}
