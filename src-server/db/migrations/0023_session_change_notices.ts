import { sql, type Kysely } from 'kysely';
import { EVERYTHING_CHANGED, MAX_NOTICE_PAYLOAD, SESSION_CHANGES_CHANNEL } from '../change-notices.ts';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * PostgreSQL: every statement that changes or deletes sessions or users sends one notice at commit
 * on SESSION_CHANGES_CHANNEL, whoever wrote them (any node, a staff action, a script, a cascade), so
 * each node's session cache forgets them (sessions/session-cache.ts,
 * docs/operations.md#the-session-cache). A session is named `s<id hash>`, a user `u<id>` (all of
 * that user's sessions: a rank change, a deletion, whatever else the request's viewer reads from the
 * user row). A statement naming more than a notice holds says "everything".
 *
 * One change to a session sends nothing: the sliding-expiry touch (last_seen_at and idle_expires_at
 * moving forward, nothing else). Another node's copy then holds an earlier expiry and an earlier
 * last sight than the database, and the cache never acts on those (it reads the database before
 * deciding a session expired or due for a touch), so the touch, every five minutes per session and
 * node, does not empty every node's copy of that session. A touch that moves them back (a script
 * ending sessions early) does notify.
 * SQLite: unchanged (one process owns the file and reads sessions in-process, uncached).
 */
export const sessionChangeNoticesMigration: EngineMigration = {
  sqlite: unchanged,
  postgres: {
    async up(db: Kysely<unknown>) {
      const notify = (items: string) => `SELECT string_agg(DISTINCT item, ',') INTO payload FROM (${items}) AS changed(item);
          IF payload IS NOT NULL THEN
            PERFORM pg_notify('${SESSION_CHANGES_CHANNEL}', CASE WHEN length(payload) > ${MAX_NOTICE_PAYLOAD} THEN '${EVERYTHING_CHANGED}' ELSE payload END);
          END IF;
          RETURN NULL;`;
      await sql
        .raw(
          `CREATE FUNCTION sessions_notify_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE payload text;
        BEGIN
          ${notify(`SELECT 's' || id_hash FROM old_sessions`)}
        END $$`,
        )
        .execute(db);
      // A row counts as changed unless it is still there with every column but the touch's the same
      // and the touch's moved forward.
      await sql
        .raw(
          `CREATE FUNCTION sessions_notify_updated() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE payload text;
        BEGIN
          ${notify(`SELECT 's' || o.id_hash FROM old_sessions AS o WHERE NOT EXISTS (
              SELECT 1 FROM new_sessions AS n
              WHERE n.id_hash = o.id_hash
                AND (n.user_id, n.client_kind, n.created_at, n.absolute_expires_at, n.tokens)
                    IS NOT DISTINCT FROM (o.user_id, o.client_kind, o.created_at, o.absolute_expires_at, o.tokens)
                AND n.last_seen_at >= o.last_seen_at AND n.idle_expires_at >= o.idle_expires_at)`)}
        END $$`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE FUNCTION users_notify_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE payload text;
        BEGIN
          ${notify(`SELECT 'u' || id FROM old_users`)}
        END $$`,
        )
        .execute(db);
      await sql`CREATE TRIGGER sessions_changed_delete AFTER DELETE ON sessions
        REFERENCING OLD TABLE AS old_sessions FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_deleted()`.execute(db);
      await sql`CREATE TRIGGER sessions_changed_update AFTER UPDATE ON sessions
        REFERENCING OLD TABLE AS old_sessions NEW TABLE AS new_sessions FOR EACH STATEMENT EXECUTE FUNCTION sessions_notify_updated()`.execute(db);
      await sql`CREATE TRIGGER users_changed_update AFTER UPDATE ON users
        REFERENCING OLD TABLE AS old_users FOR EACH STATEMENT EXECUTE FUNCTION users_notify_changed()`.execute(db);
      await sql`CREATE TRIGGER users_changed_delete AFTER DELETE ON users
        REFERENCING OLD TABLE AS old_users FOR EACH STATEMENT EXECUTE FUNCTION users_notify_changed()`.execute(db);
    },
  },
};
