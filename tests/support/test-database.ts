/**
 * Which engine a test server runs on. `TEST_DATABASE=postgres` (the vitest project "postgres" sets
 * it) gives each server a database of its own on the local PostgreSQL (TEST_POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres, trust auth), dropped when the server closes;
 * otherwise a SQLite file in the test's directory.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  /** Removes the database (PostgreSQL); SQLite files go with their directory. */
  drop(): Promise<void>;
}

async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database (whatever TEST_DATABASE says), for tests that need one. */
export async function createPostgresTestDatabase(): Promise<TestDatabase> {
  const name = `petitions_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** A fresh database on the engine under test; a SQLite file is named `file` inside `dir`. */
export async function createTestDatabase(dir: string, file = 'test.db'): Promise<TestDatabase> {
  if (TEST_ENGINE === 'postgres') return createPostgresTestDatabase();
  return { url: `sqlite:${path.join(dir, file)}`, drop: async () => {} };
}
