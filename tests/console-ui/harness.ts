/**
 * The console as `npm run console:browser` runs it, for the screen journeys: the real runtime
 * (sign-in, console core with its SQLite file, sync) behind the real browser host, the real console
 * build in Debian's Chromium, against the real backend on a temporary database. Sign-in goes through
 * the local OpenID provider in a second browser page, as a user's system browser would.
 *
 * A console can be closed and opened again on the same data folder and secret store (the session
 * survives, as the sealed one of the installed console does), and the backend can be cut off with a
 * switchable TCP forwarder (connections refused), so offline is real network failure.
 *
 * `startConsoleStack` starts everything around a journey (build, stack with a term, Chromium) for
 * the scripts (screenshots, perf:console) and, through journey.ts, for the journey files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { createMemorySecretStore, type SecretStore } from '../../src-main/node/auth/secret-store.ts';
import { startBrowserHost, type BrowserHost } from '../../src-main/node/browser-host/browser-host.ts';
import { createEventHub } from '../../src-main/node/browser-host/event-hub.ts';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { createConsoleRuntime, type ConsoleRuntime } from '../../src-main/node/runtime.ts';
import { consoleCsp } from '../../src-main/node/security/app-protocol.ts';
import { seedTerm, type TermSeed } from '../support/fixtures.ts';
import { freePort, startStack, type Stack, type StackOptions } from '../support/stack.ts';
import { switchableForwarder, type SwitchableForwarder } from '../support/switchable-forwarder.ts';
import { ensureConsoleBuild, OUT } from '../console-shell/console-build.ts';
import { launchBrowser, openPage, type TestPage } from '../support/chromium.ts';

export { ensureConsoleBuild, switchableForwarder };

export interface ConsoleInstance {
  /** A fresh one-time address of the console page (the tab that opens it gets the bridge), as the host prints. */
  openAddress(path?: string): string;
  runtime: ConsoleRuntime;
  host: BrowserHost;
  /** Sign-in addresses the runtime asked the system browser to open. */
  opened: string[];
  notifications: { title: string; body: string }[];
  close(): Promise<void>;
}

export interface ConsoleSetup {
  apiBaseUrl: string;
  dataDir: string;
  redirectUri: string;
  secrets: SecretStore;
}

export async function consoleSetup(apiBaseUrl: string, redirectUri: string): Promise<ConsoleSetup> {
  return {
    apiBaseUrl,
    redirectUri,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'console-ui-')),
    secrets: createMemorySecretStore(),
  };
}

export async function redirectUriOnFreePort(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/callback`;
}

export async function openConsole(setup: ConsoleSetup): Promise<ConsoleInstance> {
  const hub = createEventHub();
  const opened: string[] = [];
  const notifications: { title: string; body: string }[] = [];
  const runtime = createConsoleRuntime({
    dataDir: setup.dataDir,
    apiBaseUrl: setup.apiBaseUrl,
    redirectUri: setup.redirectUri,
    secrets: setup.secrets,
    openExternal: async (url) => {
      opened.push(url);
    },
    notify: (title, body) => {
      notifications.push({ title, body });
      // As console:browser does: the page shows it too.
      hub.sink.emit('platform:notification', { title, body });
    },
    updates: { initial: { kind: 'unsupported', reason: 'browser host' }, quitAndInstall: () => undefined },
    createCore: createConsoleCore,
    events: hub.sink,
    signInTimeoutMs: 60_000,
  });
  await runtime.start();
  const host = await startBrowserHost({
    rendererDir: path.join(OUT, 'renderer'),
    bridgeScript: path.join(OUT, 'preload', 'browser-bridge.cjs'),
    handlers: runtime.handlers,
    hub,
    csp: consoleCsp({ imageOrigins: [new URL(setup.apiBaseUrl).origin] }),
    port: 0,
  });
  return {
    openAddress: (path) => host.openAddress(path),
    runtime,
    host,
    opened,
    notifications,
    async close() {
      await host.close();
      await runtime.close();
    },
  };
}

/**
 * Signs a persona in from the console's own screen: "Sign in with ROBLOX", then the provider's page
 * (the system browser) in another tab, then back to the console, which shows the workspace.
 */
export async function signInFromConsole(browser: Browser, page: Page, instance: ConsoleInstance, persona: string): Promise<void> {
  const before = instance.opened.length;
  await page.getByRole('button', { name: 'Sign in with ROBLOX' }).click();
  const deadline = Date.now() + 10_000;
  while (instance.opened.length === before) {
    if (Date.now() > deadline) throw new Error('the console never opened the sign-in page');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const system = await browser.newContext();
  try {
    const tab = await system.newPage();
    await tab.goto(instance.opened.at(-1)!);
    await tab.getByRole('button', { name: persona, exact: true }).click();
    await tab.getByText('You can close this tab').waitFor();
  } finally {
    await system.close();
  }
}

export interface ConsoleStack {
  stack: Stack;
  browser: Browser;
  /** One loopback redirect per console the provider accepts. */
  redirects: string[];
  /** Opens a console on redirect `redirect` (default 0) against the backend or `apiBaseUrl`; closed by close(). */
  openConsole(options?: { redirect?: number; apiBaseUrl?: string }): Promise<ConsoleInstance>;
  /** A forwarder to the backend (see switchableForwarder), switched off by close(). */
  forwarder(): Promise<SwitchableForwarder>;
  /** A new browser context on the console at `instance`, signed in as `persona`. */
  signedInPage(instance: ConsoleInstance, persona: string): Promise<TestPage>;
  close(): Promise<void>;
}

/** The console build, a backend (no web app) with a term, and Chromium. */
export async function startConsoleStack(
  options: { consoles?: number; stack?: Pick<StackOptions, 'config'>; term?: TermSeed } = {},
): Promise<ConsoleStack> {
  await ensureConsoleBuild();
  const redirects: string[] = [];
  for (let i = 0; i < (options.consoles ?? 1); i++) redirects.push(await redirectUriOnFreePort());
  const stack = await startStack({ ...options.stack, serveWebApp: false, consoleRedirectUris: redirects });
  await seedTerm(stack.context, options.term);
  const browser = await launchBrowser();
  const instances: ConsoleInstance[] = [];
  const forwarders: SwitchableForwarder[] = [];
  return {
    stack,
    browser,
    redirects,
    async openConsole({ redirect = 0, apiBaseUrl = stack.baseUrl } = {}) {
      const instance = await openConsole(await consoleSetup(apiBaseUrl, redirects[redirect]!));
      instances.push(instance);
      return instance;
    },
    async forwarder() {
      const forwarder = await switchableForwarder(Number(new URL(stack.baseUrl).port));
      forwarders.push(forwarder);
      return forwarder;
    },
    async signedInPage(instance, persona) {
      const tab = await openPage(browser);
      await tab.page.goto(instance.openAddress());
      await signInFromConsole(browser, tab.page, instance, persona);
      return tab;
    },
    async close() {
      await browser.close();
      for (const instance of instances) await instance.close();
      for (const forwarder of forwarders) await forwarder.down();
      await stack.close();
    },
  };
}
