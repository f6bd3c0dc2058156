/**
 * The console as `npm run console:browser` runs it, for the screen journeys: the real runtime
 * (sign-in, console core with its SQLite file, sync) behind the real browser host, the real console
 * build in Debian's Chromium, against the real backend on a temporary database. Sign-in goes through
 * the local OpenID provider in a second browser page, as a user's system browser would.
 *
 * A console can be closed and opened again on the same data folder and secret store (the session
 * survives, as the sealed one of the installed console does), and the backend can be cut off with a
 * switchable TCP forwarder (connections refused), so offline is real network failure.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { createMemorySecretStore, type SecretStore } from '../../src-main/node/auth/secret-store.ts';
import { startBrowserHost, type BrowserHost } from '../../src-main/node/browser-host/browser-host.ts';
import { createEventHub } from '../../src-main/node/browser-host/event-hub.ts';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { createConsoleRuntime, type ConsoleRuntime } from '../../src-main/node/runtime.ts';
import { consoleCsp } from '../../src-main/node/security/app-protocol.ts';
import { freePort } from '../support/stack.ts';
import { ensureConsoleBuild, OUT } from '../console-shell/console-build.ts';

export { ensureConsoleBuild };

export interface ConsoleInstance {
  url: string;
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
    url: host.url,
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

/** A TCP forwarder to the backend that can be switched off: connections are refused while down. */
export async function switchableForwarder(targetPort: number) {
  let server: net.Server | null = null;
  const sockets = new Set<net.Socket>();
  const port = await freePort();
  const forwarder = {
    url: `http://127.0.0.1:${port}`,
    async up() {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, '127.0.0.1');
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    },
    async down() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = null;
    },
  };
  await forwarder.up();
  return forwarder;
}
