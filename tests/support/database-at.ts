/** A database migrated only up to a given migration: the starting point of a migration's test. */
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationsFor } from '../../src-server/db/migrations/index.ts';
import { createPostgresPool } from '../../src-server/db/postgres-database.ts';
import type { Database } from '../../src-server/db/schema.ts';
import { TEST_ENGINE } from './test-database.ts';

export async function databaseAt(file: string, migrationName: string): Promise<Kysely<Database>> {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrationsFor('sqlite') } }).migrateTo(migrationName);
  if (error) throw error;
  return db;
}

/** The test database at `url` (either engine, as TEST_ENGINE) migrated only up to `migrationName`. */
export async function testDatabaseAt(url: string, migrationName: string): Promise<Kysely<unknown>> {
  if (TEST_ENGINE === 'sqlite') return (await databaseAt(url.replace(/^sqlite:/, ''), migrationName)) as Kysely<unknown>;
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: createPostgresPool(url) }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrationsFor('postgres') } }).migrateTo(migrationName);
  if (error) throw error;
  return db;
}
