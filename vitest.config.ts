import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: every test on SQLite (the default engine), and the API suite again on PostgreSQL
 * (TEST_DATABASE=postgres: each test server gets a database of its own on 127.0.0.1:5432, dropped
 * afterwards; tests/support/test-database.ts). Left out of the PostgreSQL run: files about SQLite
 * itself (its direct connection, written-behind counts, file ownership, table rebuilds, checkpoints) and files no database choice affects; postgres-*.test.ts always run on
 * PostgreSQL, so once is enough (postgres-restart.test.ts on a PostgreSQL server of its own, which it stops and starts,
 * so the shared one that other files use at the same time is never restarted).
 */
const SQLITE_ONLY = [
  'tests/server-api/direct-sqlite.test.ts',
  'tests/server-api/signature-counts.test.ts',
  'tests/server-api/database-ownership.test.ts',
  'tests/server-api/migration-clustered-keys.test.ts',
  'tests/server-api/wal-checkpointer.test.ts',
];
const ENGINE_INDEPENDENT = ['tests/server-api/web-app-encoding.test.ts', 'tests/server-api/public-docs.test.ts', 'tests/server-api/postgres-*.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // One temporary directory for the whole run, removed at its end (tests/support/temporary-root.ts).
    globalSetup: ['tests/support/temporary-root.ts'],
    testTimeout: 60_000,
    // Several files run at once on a small shared machine: a page or a server may take seconds to answer.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files spend their time waiting on child processes (server nodes, Chromium, PostgreSQL),
    // so more files than cores run at once: vitest's default of cores - 1 runs one at a time on
    // a 2-core machine. Every file has its own ports, temporary databases and directories; the
    // web and console builds are shared behind lock files (tests/support/stack.ts, tests/console-shell/console-build.ts).
    maxWorkers: Math.max(3, os.availableParallelism()),
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'] } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['tests/server-api/**/*.test.ts'],
          exclude: [...SQLITE_ONLY, ...ENGINE_INDEPENDENT],
          env: { TEST_DATABASE: 'postgres' },
        },
      },
    ],
  },
});
