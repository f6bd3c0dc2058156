/** A SQLite file migrated only up to a given migration: the starting point of a migration's test. */
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationsFor } from '../../src-server/db/migrations/index.ts';
import type { Database } from '../../src-server/db/schema.ts';

export async function databaseAt(file: string, migrationName: string): Promise<Kysely<Database>> {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrationsFor('sqlite') } }).migrateTo(migrationName);
  if (error) throw error;
  return db;
}
