/**
 * The server's own sessions. The cookie (or, for the desktop console, a bearer token) holds a random
 * token; the database holds only its SHA-256, so a leaked database yields no live session.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database, SessionRow, UserRow } from '../db/schema.ts';

export type ClientKind = 'web' | 'console';

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export interface ResolvedSession {
  session: SessionRow;
  user: UserRow;
}

/** Runs before every signed-in request, so it is compiled once (see prepared-query.ts). */
const findSessionWithUser = preparedQuery(['idHash'], (db, p: { idHash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select([
      'users.username',
      'users.display_name',
      'users.avatar_url',
      'users.citizen_rank',
      'users.government_rank',
      'users.groups_unavailable',
      'users.roles_checked_at',
      'users.created_at as user_created_at',
      'users.updated_at as user_updated_at',
    ])
    .where('sessions.id_hash', '=', p.idHash),
);

export function createSessionService(db: Kysely<Database>) {
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
      const row = (await findSessionWithUser(db, { idHash })).rows[0];
      if (!row) return null;
      const stamp = now.toISOString();
      if (row.idle_expires_at <= stamp || row.absolute_expires_at <= stamp) {
        await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
        return null;
      }
      const session: SessionRow = {
        id_hash: row.id_hash,
        user_id: row.user_id,
        client_kind: row.client_kind,
        created_at: row.created_at,
        last_seen_at: row.last_seen_at,
        idle_expires_at: row.idle_expires_at,
        absolute_expires_at: row.absolute_expires_at,
        tokens: row.tokens,
      };
      if (now.getTime() - Date.parse(row.last_seen_at) > TOUCH_INTERVAL_MS) {
        const idle = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, Date.parse(row.absolute_expires_at)));
        await db
          .updateTable('sessions')
          .set({ last_seen_at: stamp, idle_expires_at: idle.toISOString() })
          .where('id_hash', '=', idHash)
          .execute();
      }
      const user: UserRow = {
        id: row.user_id,
        username: row.username,
        display_name: row.display_name,
        avatar_url: row.avatar_url,
        citizen_rank: row.citizen_rank,
        government_rank: row.government_rank,
        groups_unavailable: row.groups_unavailable,
        roles_checked_at: row.roles_checked_at,
        created_at: row.user_created_at,
        updated_at: row.user_updated_at,
      };
      return { session, user };
    },

    async destroy(idHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },

    async destroyAllForUser(userId: string): Promise<void> {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },

    /**
     * The sealed provider tokens as stored now: undefined when the session is gone. Read fresh
     * (not from the request's copy) because a concurrent refresh may have rotated them.
     */
    async readTokens(idHash: string): Promise<string | null | undefined> {
      const row = await db.selectFrom('sessions').select('tokens').where('id_hash', '=', idHash).executeTakeFirst();
      return row ? row.tokens : undefined;
    },

    async setTokens(idHash: string, tokens: string | null): Promise<void> {
      await db.updateTable('sessions').set({ tokens }).where('id_hash', '=', idHash).execute();
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
