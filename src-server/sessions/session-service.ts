/**
 * The server's own sessions. The cookie (or, for the desktop console, a bearer token) holds a random
 * token; the database holds only its SHA-256, so a leaked database yields no live session.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SqlDialectName } from '../db/dialect.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database, Db, SessionRow, UserRow } from '../db/schema.ts';
import { transactionLocks } from '../db/transaction-locks.ts';
import type { FoundSession, SessionCache } from './session-cache.ts';

export type ClientKind = 'web' | 'console';

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

/** Runs before every signed-in request; the one-shot form costs 0.4 µs where a Hash object costs 0.9 µs. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'base64url');
}

export interface ResolvedSession {
  session: SessionRow;
  user: UserRow;
}

/**
 * Run before every signed-in request, so compiled once (see prepared-query.ts). Two key lookups
 * rather than a join: on SQLite the join costs about three times the two lookups together.
 */
const findSession = preparedQuery(['idHash'], (db, p: { idHash: string }) => db.selectFrom('sessions').selectAll().where('id_hash', '=', p.idHash));
const findUser = preparedQuery(['id'], (db, p: { id: string }) => db.selectFrom('users').selectAll().where('id', '=', p.id));

const USER_COLUMNS = [
  'id', 'username', 'display_name', 'avatar_url', 'citizen_rank', 'government_rank', 'groups_unavailable', 'roles_checked_at', 'created_at', 'updated_at',
  'account_created_at', 'account_verified',
] as const satisfies readonly (keyof UserRow)[];
// Every column of the user, or a request's viewer would lack one on PostgreSQL only.
const EVERY_USER_COLUMN: Record<Exclude<keyof UserRow, (typeof USER_COLUMNS)[number]>, never> = {};
void EVERY_USER_COLUMN;
type JoinedRow = SessionRow & { [K in (typeof USER_COLUMNS)[number] as `u_${K}`]: UserRow[K] };

/** On PostgreSQL each statement is a round trip to another process, so one join beats two lookups. */
const findSessionWithUser = preparedQuery(['idHash'], (db, p: { idHash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select(USER_COLUMNS.map((column) => `users.${column} as u_${column}` as const))
    .where('sessions.id_hash', '=', p.idHash),
);

/** Reads a session by its hash and the user it belongs to; a session whose user is gone reads as no user. */
type SessionReader = (db: Kysely<Database>, idHash: string) => Promise<FoundSession | undefined>;

function splitJoined(row: JoinedRow): FoundSession {
  const { id_hash, user_id, client_kind, created_at, last_seen_at, idle_expires_at, absolute_expires_at, tokens } = row;
  const session: SessionRow = { id_hash, user_id, client_kind, created_at, last_seen_at, idle_expires_at, absolute_expires_at, tokens };
  const user = Object.fromEntries(USER_COLUMNS.map((column) => [column, row[`u_${column}`]])) as unknown as UserRow;
  return { session, user };
}

/** PostgreSQL: a session and its user as one row (findSessionWithUser), for the session cache's misses. */
export async function readPostgresSession(db: Kysely<Database>, idHash: string): Promise<FoundSession | undefined> {
  const row = (await findSessionWithUser(db, { idHash })).rows[0] as JoinedRow | undefined;
  return row ? splitJoined(row) : undefined;
}

/** Live sessions after `cursor` in id-hash order, with their users: the session cache's warming. */
export async function readPostgresSessionsAfter(db: Kysely<Database>, cursor: string | null, limit: number, now = new Date()): Promise<FoundSession[]> {
  const stamp = now.toISOString();
  let query = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select(USER_COLUMNS.map((column) => `users.${column} as u_${column}` as const))
    .where('sessions.idle_expires_at', '>', stamp)
    .where('sessions.absolute_expires_at', '>', stamp);
  if (cursor !== null) query = query.where('sessions.id_hash', '>', cursor);
  const rows = await query.orderBy('sessions.id_hash').limit(limit).execute();
  return rows.map((row) => splitJoined(row as JoinedRow));
}

const SESSION_READERS: Record<SqlDialectName, SessionReader> = {
  async sqlite(db, idHash) {
    const session = (await findSession(db, { idHash })).rows[0];
    if (!session) return undefined;
    // The foreign key cascades, so a session without its user is a race with a deletion.
    return { session, user: (await findUser(db, { id: session.user_id })).rows[0] };
  },
  // The foreign key cascades, so a session always has its user: no row means no session.
  postgres: readPostgresSession,
};

/** `dialect` picks how a request's session is read (the rest is the same on both engines). */
/** A session's sealed provider tokens, read and written through one connection. */
export interface SessionTokenStore {
  /** As stored now: undefined when the session is gone, null when it never held provider tokens. */
  read(): Promise<string | null | undefined>;
  write(tokens: string | null): Promise<void>;
}

function tokenStore(db: Db, idHash: string): SessionTokenStore {
  return {
    async read() {
      const row = await db.selectFrom('sessions').select('tokens').where('id_hash', '=', idHash).executeTakeFirst();
      return row ? row.tokens : undefined;
    },
    async write(tokens) {
      await db.updateTable('sessions').set({ tokens }).where('id_hash', '=', idHash).execute();
    },
  };
}

/**
 * `cache`: PostgreSQL's per-node session cache (session-cache.ts), or none: every request reads the
 * database (SQLite always: one process reads its file in-process, docs/operations.md#the-session-cache).
 */
export function createSessionService(db: Kysely<Database>, dialect: SqlDialectName = 'sqlite', cache?: SessionCache) {
  const readSession = SESSION_READERS[dialect];
  const read = cache ? (idHash: string) => cache.read(idHash) : (idHash: string) => readSession(db, idHash);
  const locks = transactionLocks(dialect);
  return {
    /** Creates a session and returns the token to hand to the client (never stored). */
    async create(userId: string, kind: ClientKind = 'web', now = new Date()): Promise<{ token: string; idHash: string }> {
      const token = randomBytes(32).toString('base64url');
      const idHash = hashToken(token);
      await db
        .insertInto('sessions')
        .values({
          id_hash: idHash,
          user_id: userId,
          client_kind: kind,
          created_at: now.toISOString(),
          last_seen_at: now.toISOString(),
          idle_expires_at: new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
          absolute_expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
          tokens: null,
        })
        .execute();
      return { token, idHash };
    },

    async resolve(token: string, now = new Date()): Promise<ResolvedSession | null> {
      const idHash = hashToken(token);
      let found = await read(idHash);
      if (!found) return null;
      const stamp = now.toISOString();
      const expired = (f: FoundSession) => f.session.idle_expires_at <= stamp || f.session.absolute_expires_at <= stamp;
      const touchDue = (f: FoundSession) => now.getTime() - Date.parse(f.session.last_seen_at) > TOUCH_INTERVAL_MS;
      // A cached copy may hold an older touch than the database (another node's touch sends no
      // notice: migration 0023), so expiry and the touch are decided on the database's row.
      if (cache && (expired(found) || touchDue(found))) {
        found = await cache.reload(idHash);
        if (!found) return null;
      }
      const { session, user } = found;
      if (expired(found)) {
        await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
        cache?.forget(idHash);
        return null;
      }
      if (!user) return null;
      if (touchDue(found)) {
        const idle = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, Date.parse(session.absolute_expires_at))).toISOString();
        await db.updateTable('sessions').set({ last_seen_at: stamp, idle_expires_at: idle }).where('id_hash', '=', idHash).execute();
        // This node's copy takes the touch, so its next requests are not due again (no notice comes back for it).
        cache?.touched(idHash, found, { session: { ...session, last_seen_at: stamp, idle_expires_at: idle }, user });
      }
      return { session, user };
    },

    async destroy(idHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
      cache?.forget(idHash);
    },

    async destroyAllForUser(userId: string): Promise<void> {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
      cache?.forgetUser(userId);
    },

    /**
     * The sealed provider tokens as stored now: undefined when the session is gone. Read fresh
     * (not from the request's copy) because a concurrent refresh may have rotated them.
     */
    readTokens(idHash: string): Promise<string | null | undefined> {
      return tokenStore(db, idHash).read();
    },

    async setTokens(idHash: string, tokens: string | null): Promise<void> {
      await tokenStore(db, idHash).write(tokens);
      cache?.forget(idHash);
    },

    /** The session cache's figures (none on SQLite). */
    cacheStats: () => cache?.stats(),

    /**
     * Runs `work` on the session's tokens while no other node does the same for this session (a
     * refresh token is single use: two nodes refreshing at once would end the session). `work` reads
     * through the store it is given, so it sees tokens another node rotated while it waited.
     */
    withTokensHeld<T>(idHash: string, work: (store: SessionTokenStore) => Promise<T>): Promise<T> {
      return locks.exclusively(db, 'session-tokens', idHash, (conn) => work(tokenStore(conn, idHash)));
    },

    async purgeExpired(now = new Date()): Promise<number> {
      const stamp = now.toISOString();
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('idle_expires_at', '<=', stamp), eb('absolute_expires_at', '<=', stamp)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
