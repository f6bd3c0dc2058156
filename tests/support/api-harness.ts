/**
 * Starts the real application on a fresh database (a SQLite file, or with TEST_DATABASE=postgres a
 * PostgreSQL database of its own: test-database.ts) for request-level tests, and creates
 * signed-in users through the session service (no test-only HTTP route exists).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type ServerApp } from '../../src-server/app.ts';
import { loadConfig, type LimitsConfig, type ServerConfig } from '../../src-server/config.ts';
import { createAppContext, type AppContext } from '../../src-server/context.ts';
import { openDatabase, type OpenDatabase } from '../../src-server/db/database.ts';
import type { UserProfile } from '../../src-server/users/user-repository.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { createTestDatabase } from './test-database.ts';

export const ADMIN_ID = '9000';

/** The roles of the permission matrix, as group ranks. */
export const ROLE_PROFILES = {
  nonCitizen: { id: '9001', username: 'outsider', displayName: 'Outsider', avatarUrl: null, citizenRank: 0, governmentRank: 0 },
  citizen: { id: '9002', username: 'citizen', displayName: 'Citizen Kane', avatarUrl: null, citizenRank: 1, governmentRank: 0 },
  rank6: { id: '9006', username: 'minister', displayName: 'Cabinet Minister', avatarUrl: null, citizenRank: 1, governmentRank: 6 },
  rank7: { id: '9007', username: 'leader', displayName: 'Leader of the House', avatarUrl: null, citizenRank: 1, governmentRank: 7 },
  rank8: { id: '9008', username: 'primeminister', displayName: 'Prime Minister', avatarUrl: null, citizenRank: 1, governmentRank: 8 },
  admin: { id: ADMIN_ID, username: 'sysadmin', displayName: 'System Administrator', avatarUrl: null, citizenRank: 1, governmentRank: 0 },
  bannedCitizen: { id: '9666', username: 'banned', displayName: 'Banned Citizen', avatarUrl: null, citizenRank: 1, governmentRank: 0 },
} satisfies Record<string, UserProfile>;
export type RoleName = keyof typeof ROLE_PROFILES;

export interface TestApi {
  app: ServerApp;
  context: AppContext;
  database: OpenDatabase;
  dir: string;
  /** Moves the server's clock; every service reads time through context.now(). */
  setNow(date: Date | null): void;
  /** Signs a user in through the session service and returns the Cookie header value. */
  signIn(profile: UserProfile): Promise<string>;
  signInAs(role: RoleName): Promise<string>;
  request(options: InjectOptions & { cookie?: string }): Promise<LightMyRequestResponse>;
  /** Serves the app over real HTTP on a free loopback port (for streams and parallel clients); answers its base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /** From how many petitions the site counts as large (signature counts are then written behind). */
  largeSitePetitions?: number;
  /** Routes of the test's own, added to the real app before it starts (to exercise the route plumbing). */
  extraRoutes?: (app: ServerApp) => void;
}

/** Configuration overrides; `limits` are merged into the defaults (docs/limits.md), so a test names only what it changes. */
export type TestConfigOverrides = Partial<Omit<ServerConfig, 'limits'>> & { limits?: Partial<LimitsConfig> };

export async function startTestApi(overrides: TestConfigOverrides = {}, options: TestApiOptions = {}): Promise<TestApi> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-test-'));
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_USER_ID: ADMIN_ID });
  const testDatabase = overrides.databaseUrl ? null : await createTestDatabase(dir);
  const config: ServerConfig = {
    ...base,
    databaseUrl: testDatabase?.url ?? '',
    ...overrides,
    databasePool: { ...base.databasePool, ...overrides.databasePool },
    limits: { ...base.limits, ...overrides.limits },
  };
  const database = await openDatabase(config.databaseUrl, config.databasePool);
  let frozen: Date | null = null;
  const context = createAppContext({
    config,
    db: database.db,
    dialect: database.dialect,
    readiness: database.readiness,
    now: () => frozen ?? new Date(),
    largeSitePetitions: options.largeSitePetitions,
    poolStats: database.poolStats,
    changeNotices: database.changeNotices,
  });
  const app = await buildApp(context, { logger: false });
  options.extraRoutes?.(app);
  await app.ready();

  async function signIn(profile: UserProfile): Promise<string> {
    await context.users.upsert(profile);
    const { token } = await context.sessions.create(profile.id, 'web');
    return `${context.cookie.name}=${token}`;
  }

  return {
    app,
    context,
    database,
    dir,
    setNow(date) {
      frozen = date;
    },
    signIn,
    async signInAs(role) {
      const cookie = await signIn(ROLE_PROFILES[role]);
      if (role === 'bannedCitizen') {
        await context.db
          .insertInto('bans')
          .values({ user_id: ROLE_PROFILES.bannedCitizen.id, reason: 'Spam', banned_by: ADMIN_ID, banned_at: new Date().toISOString() })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .execute();
      }
      return cookie;
    },
    request({ cookie, headers, ...options }) {
      const method = (options.method ?? 'GET').toUpperCase();
      const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
      return app.inject({
        ...options,
        headers: {
          ...(unsafe ? { [CSRF_HEADER]: CSRF_HEADER_VALUE } : {}),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
      });
    },
    async listen() {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('the test server has no port');
      return `http://127.0.0.1:${address.port}`;
    },
    async close() {
      await app.close();
      await database.close();
      await testDatabase?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
