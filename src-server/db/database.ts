/**
 * Opens the database named by DATABASE_URL and brings its schema up to date: a SQLite file
 * (`sqlite:<file>`, the default) or PostgreSQL (`postgres://…`, postgres-database.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.ts';
import type { OpenDatabase, PoolOptions } from './dialect.ts';
import { migrateToLatest } from './migrations/index.ts';
import { registerDirectSqlite } from './direct-sqlite.ts';
import { openOwnedSqlite } from './owned-file.ts';
import { isPostgresUrl, openPostgresDatabase } from './postgres-database.ts';
import { sharedConnectionProbe } from './readiness-probe.ts';
import { withStatementCache } from './statement-cache.ts';
import { startWalCheckpointer } from './wal-checkpointer.ts';

/** Address space, not memory: the OS pages in what is read and can drop it again. */
const MMAP_BYTES = 1024 * 1024 * 1024;

export type { OpenDatabase } from './dialect.ts';

/** The file of a `sqlite:` DATABASE_URL (`sqlite:data/petitions.db`, `sqlite://…`). */
export function sqliteFile(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/, '');
}

export async function openDatabase(databaseUrl: string, pool: PoolOptions = {}): Promise<OpenDatabase> {
  if (isPostgresUrl(databaseUrl)) return openPostgresDatabase(databaseUrl, pool);
  const file = sqliteFile(databaseUrl);
  const inMemory = file === ':memory:';
  if (!inMemory) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const created = inMemory || !fs.existsSync(file);
  const owned = inMemory ? null : openOwnedSqlite(file);
  const sqlite = owned?.sqlite ?? new BetterSqlite3(file);
  // WAL lets readers run while a writer commits; NORMAL sync is durable across process crashes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Small on purpose: reads come through the memory map, so the page cache mostly holds pages being
  // written, and SQLite walks the whole cache's hash table at the end of each write transaction
  // (pcache1TruncateUnsafe in perf). At 64 MB that walk was 7% of the server's time while signing.
  sqlite.pragma('cache_size = -8000');
  sqlite.pragma('temp_store = MEMORY');
  // Reads through a memory map skip a system call and a copy per page; the OS shares the pages.
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  // Checkpoints run on a worker thread (wal-checkpointer.ts), not inside request-serving commits.
  const checkpointer = owned ? startWalCheckpointer(file, owned.connectionName) : null;
  // SQLite's own checkpoint stays as a safety net for when the event loop is starved (a long
  // synchronous batch) and the watcher's timer cannot fire; normally the worker runs long before.
  if (checkpointer) sqlite.pragma('wal_autocheckpoint = 4000');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  registerDirectSqlite(db, { sqlite, prepare: (text) => statements.prepare(text) });
  await migrateToLatest(db, 'sqlite');
  return {
    db,
    dialect: 'sqlite',
    created,
    exclusive: owned?.exclusive ?? true,
    readiness: sharedConnectionProbe(db, 'sqlite'),
    sqliteFile: owned ? { path: path.resolve(file), connectionName: owned.connectionName } : undefined,
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
