/**
 * The console's own SQLite file: the outbox of staff actions and the read cache. Durability matters
 * more than speed here (a queued action must survive a power cut), hence synchronous=FULL. The one
 * exception is the sync engine's bookkeeping, which a power cut may undo at no cost (the outbox
 * store's `settleAndClaim` says why).
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export type ConsoleDb = BetterSqlite3.Database;

export const CONSOLE_DB_FILE = 'console.db';

/**
 * Migrations in order; the database's `PRAGMA user_version` is how many have run. Never edit one
 * that has shipped: add the next.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
   CREATE TABLE outbox (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     idempotency_key TEXT NOT NULL UNIQUE,
     actor_user_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     target_type TEXT NOT NULL,
     target_id TEXT NOT NULL,
     batch_id TEXT,
     payload_json TEXT NOT NULL,
     base_version INTEGER,
     state TEXT NOT NULL CHECK (state IN
       ('pending','sending','retry_wait','blocked_auth','applied','conflict','rejected','failed','cancelled')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_attempt_at INTEGER,
     last_http_status INTEGER,
     last_error TEXT,
     server_petition_json TEXT,
     result_json TEXT,
     supersedes_id TEXT REFERENCES outbox(id),
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX outbox_due ON outbox(state, next_attempt_at);
   CREATE INDEX outbox_target ON outbox(target_type, target_id, seq);
   CREATE INDEX outbox_batch ON outbox(batch_id);
   CREATE INDEX outbox_actor ON outbox(actor_user_id, state);
   CREATE TABLE cached_reads (
     user_id TEXT NOT NULL,
     path TEXT NOT NULL,
     json TEXT NOT NULL,
     fetched_at INTEGER NOT NULL,
     PRIMARY KEY (user_id, path)
   ) STRICT;`,
  // Sync's claim walks one user's waiting rows in queue order and stops at its limit, instead of
  // testing every waiting row and sorting; the target check reads state from the index alone.
  `CREATE INDEX outbox_queue ON outbox(actor_user_id, seq) WHERE state IN ('pending', 'retry_wait');
   DROP INDEX outbox_target;
   CREATE INDEX outbox_target ON outbox(target_type, target_id, seq, state);`,
];

export function migrateConsoleDb(db: ConsoleDb): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`The console database is from a newer version (schema ${current}, this build knows ${MIGRATIONS.length})`);
  }
  for (let version = current; version < MIGRATIONS.length; version += 1) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version] as string);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

export function openConsoleDb(dataDir: string): ConsoleDb {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new BetterSqlite3(path.join(dataDir, CONSOLE_DB_FILE));
  db.pragma('journal_mode = WAL');
  // FULL: a committed outbox row is on disk before enqueue returns, even across a power cut.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrateConsoleDb(db);
  return db;
}
