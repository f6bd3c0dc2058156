/**
 * The whole product on one machine for end-to-end tests: the local OpenID provider (stand-in for
 * Roblox) on a free port, a fresh database (test-database.ts), and the real server listening on 127.0.0.1 with the
 * built web app. Nothing is mocked: sign-in goes through the provider's page.
 *
 *   import { startStack } from '../support/stack.ts';
 *   import { seedPetition, seedTerm } from '../support/fixtures.ts';
 *
 *   const stack = await startStack();                    // options: { maintenance?: boolean, ... }
 *   stack.baseUrl        // 'http://127.0.0.1:<port>'   (the web app and /api)
 *   stack.providerUrl    // 'http://127.0.0.1:<port>'   (the provider; its issuer is `${providerUrl}/oauth/`)
 *   stack.context        // AppContext: db, config, sessions, users, siteSettings, now()…
 *   await stack.signIn(page, 'Cabinet Minister');         // Playwright page; a label of DEV_PERSONAS
 *   await stack.close();
 *
 *   const term = await seedTerm(stack.context);                     // a current term (dates around now)
 *   const petition = await seedPetition(stack.context, { signatures: 12 });  // in the current term
 *
 * Persona labels (src-server/dev/provider/personas.ts): 'Citizen', 'Non-citizen', 'Cabinet Minister',
 * 'Leader of the House of Commons', 'Prime Minister', 'System Administrator'.
 *
 * `signIn` opens the app if the page is elsewhere, logs out first if someone is signed in, clicks
 * the header's 'Login with ROBLOX' button, presses the persona's button on the provider page and
 * waits until the header shows the persona's display name. It clears the provider's cookies in the
 * browser context first, so switching persona in one context works. The web app is built once per test run (`npx vite build`) when dist-web is missing
 * or older than src-renderer/, src-shared/ or vite.config.ts; a lock file serialises parallel builds.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright';
import { buildApp, type ServerApp } from '../../src-server/app.ts';
import { loadConfig, type LimitsConfig, type ServerConfig } from '../../src-server/config.ts';
import { createAppContext, type AppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import {
  DEV_ADMIN_USER_ID,
  DEV_CITIZEN_GROUP_ID,
  DEV_GOVERNMENT_GROUP_ID,
  DEV_PERSONAS,
  startDevProvider,
  type DevProvider,
} from '../../src-server/dev/provider/index.ts';
import { DEV_CONSOLE_REDIRECT_URI } from '../../src-server/dev/dev-sign-in.ts';
import { buildWebIfStale } from '../../scripts/build-web.ts';
import { createTestDatabase } from './test-database.ts';

export interface StackOptions {
  /** Start with maintenance mode on. */
  maintenance?: boolean;
  /** Serve the built web app (default true; API-only tests pass false and skip the build). */
  serveWebApp?: boolean;
  /** Point the legacy groups fallback at the provider (default false, as in production). */
  legacyGroupsFallback?: boolean;
  /** Extra server configuration (e.g. a log level); `limits` are merged into the defaults. */
  config?: Partial<Omit<ServerConfig, 'limits'>> & { limits?: Partial<LimitsConfig> };
  /** More loopback redirects the provider accepts for console sign-in (tests listen on a free port). */
  consoleRedirectUris?: string[];
  /** Registers test-only routes on the app before it starts listening. */
  extraRoutes?: (app: ServerApp) => void;
}

export interface Stack {
  baseUrl: string;
  providerUrl: string;
  context: AppContext;
  app: ServerApp;
  /** The provider itself, e.g. to make its group API fail with setGroupApiFailure(). */
  devProvider: DevProvider;
  /** Moves the server's clock (context.now()); null returns to real time. */
  setNow(date: Date | null): void;
  signIn(page: Page, personaLabel: string): Promise<void>;
  close(): Promise<void>;
}

export const STACK_SESSION_SECRET = 'stack-test-session-secret-0123456789abcdef';
export const LOGIN_BUTTON_LABEL = 'Login with ROBLOX';


/** A free port on the loopback interface, held until `release()`, so nothing else takes it meanwhile. */
export async function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref(); // a set-up that fails before release() does not keep the process alive
  const { port } = server.address() as net.AddressInfo;
  return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A port free now. Between this and the listen that uses it, another process (a parallel test file's
 * server, an outgoing connection's ephemeral port) may take it: hold it with reservePort() where the
 * listener is in this process.
 */
export async function freePort(): Promise<number> {
  const { port, release } = await reservePort();
  await release();
  return port;
}

/** Builds dist-web when its sources changed; parallel test files (and `npm start`) build it once (scripts/build-web.ts). */
export async function ensureWebBuild(): Promise<void> {
  await buildWebIfStale();
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const serveWebApp = options.serveWebApp ?? true;
  if (serveWebApp) await ensureWebBuild();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-stack-'));
  // Held while the provider and the database are set up (seconds), let go just before the server listens.
  const reserved = await reservePort();
  const { port } = reserved;
  const baseUrl = `http://127.0.0.1:${port}`;
  const clientId = `petitions-stack-${port}`;
  const clientSecret = `stack-secret-${port}-${Math.random().toString(36).slice(2)}`;
  const devProvider = await startDevProvider({
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [`${baseUrl}/auth/callback`, DEV_CONSOLE_REDIRECT_URI, ...(options.consoleRedirectUris ?? [])] }],
  });

  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const testDatabase = options.config?.databaseUrl ? null : await createTestDatabase(dir, 'stack.db');
  const config: ServerConfig = {
    ...base,
    host: '127.0.0.1',
    port,
    databaseUrl: testDatabase?.url ?? '',
    publicBaseUrl: baseUrl,
    roblox: {
      ...base.roblox,
      clientId,
      clientSecret,
      issuer: devProvider.issuer,
      apiBase: devProvider.apiBase,
      legacyGroupsBase: options.legacyGroupsFallback ? devProvider.apiBase : undefined,
      citizenGroupId: DEV_CITIZEN_GROUP_ID,
      governmentGroupId: DEV_GOVERNMENT_GROUP_ID,
      // As the development sign-in does: the local provider gives the verified claim.
      requestVerification: true,
    },
    adminUserId: DEV_ADMIN_USER_ID,
    sessionSecret: STACK_SESSION_SECRET,
    ...options.config,
    limits: { ...base.limits, ...options.config?.limits },
  };

  const database = await openDatabase(config.databaseUrl);
  let frozen: Date | null = null;
  const context = createAppContext({ config, db: database.db, dialect: database.dialect, now: () => frozen ?? new Date(), poolStats: database.poolStats, changeNotices: database.changeNotices });
  const app = await buildApp(context, { serveWebApp, logger: config.logLevel !== 'silent' });
  options.extraRoutes?.(app);
  await reserved.release();
  await app.listen({ host: '127.0.0.1', port });
  if (options.maintenance) await context.siteSettings.setMaintenance(true);

  return {
    baseUrl,
    providerUrl: devProvider.apiBase,
    context,
    app,
    devProvider,
    setNow(date) {
      frozen = date;
    },
    async signIn(page, personaLabel) {
      const persona = DEV_PERSONAS.find((p) => p.label === personaLabel);
      if (!persona) throw new Error(`No persona labelled '${personaLabel}'. Use one of: ${DEV_PERSONAS.map((p) => p.label).join(', ')}`);
      if (!page.url().startsWith(baseUrl)) await page.goto(`${baseUrl}/`);
      const header = page.locator('header');
      const logout = header.getByRole('button', { name: 'Logout' });
      const login = header.getByRole('button', { name: LOGIN_BUTTON_LABEL });
      await login.or(logout).first().waitFor({ state: 'visible' });
      if (await logout.isVisible()) {
        await logout.click();
        await login.waitFor({ state: 'visible' });
      }
      // Cookies are per host, not per port: the provider's own session cookies sit next to ours on
      // 127.0.0.1. Dropping them makes the provider show its persona page instead of silently
      // signing the previous persona in again.
      const cookieName = context.cookie.name;
      const keep = (await page.context().cookies()).filter((c) => c.name === cookieName);
      await page.context().clearCookies();
      if (keep.length > 0) await page.context().addCookies(keep);
      await login.click();
      await page.waitForURL((url) => url.href.startsWith(devProvider.apiBase));
      await page.getByRole('button', { name: personaLabel, exact: true }).click();
      await page.waitForURL((url) => url.href.startsWith(baseUrl));
      await page.locator('header').getByText(persona.displayName, { exact: true }).waitFor({ state: 'visible' });
    },
    async close() {
      await app.close();
      await database.close();
      await testDatabase?.drop();
      // A test may already have stopped the provider to simulate an outage.
      await devProvider.close().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
