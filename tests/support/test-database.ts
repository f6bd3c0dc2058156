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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** Databases left by test processes that died before dropping them (their pid is in the name). */
async function dropOrphans(): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'petitions\\_test\\_%'");
    for (const { datname } of rows) {
      const pid = Number(/^petitions_test_(\d+)_/.exec(datname)?.[1]);
      if (pid && !isAlive(pid)) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  } finally {
    await client.end();
  }
}

let orphansDropped: Promise<void> | null = null;

/** A fresh PostgreSQL database (whatever TEST_DATABASE says), for tests that need one. */
export async function createPostgresTestDatabase(): Promise<TestDatabase> {
  await (orphansDropped ??= dropOrphans().catch(() => {}));
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
