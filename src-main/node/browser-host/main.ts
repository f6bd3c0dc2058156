/**
 * `npm run console:browser`: the console's main-process services under plain Node, with the console
 * renderer build served on http://127.0.0.1:$CONSOLE_PORT (default 5180) to any browser.
 *
 *   PETITIONS_API_URL   the backend (default http://localhost:3000, i.e. `npm start`)
 *   CONSOLE_DATA_DIR    the console's SQLite data (default ./data/console)
 *   CONSOLE_PORT        where the console is served (default 5180)
 *   CONSOLE_REDIRECT_URI  the sign-in loopback address registered at the provider
 *   CONSOLE_OPEN_BROWSER=0  only print the sign-in address (headless machines, tests)
 *
 * The session token stays in this process's memory only (there is no OS keyring to seal it with),
 * so each run starts signed out. Desktop notifications are printed here; the page shows its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONSOLE_LOOPBACK_REDIRECT_URI } from '../../../src-shared/console/sign-in.ts';
import { createMemorySecretStore } from '../auth/secret-store.ts';
import { createConsoleCore } from '../console-core.ts';
import { createConsoleRuntime } from '../runtime.ts';
import { consoleCsp } from '../security/app-protocol.ts';
import { startBrowserHost } from './browser-host.ts';
import { createEventHub } from './event-hub.ts';
import { openInBrowser } from './open-browser.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const rendererDir = path.join(ROOT, 'out', 'renderer');
const bridgeScript = path.join(ROOT, 'out', 'preload', 'browser-bridge.cjs');

for (const file of [path.join(rendererDir, 'index.html'), bridgeScript]) {
  if (!fs.existsSync(file)) {
    console.error(`Missing ${path.relative(ROOT, file)}: run \`npm run build:console\` first.`);
    process.exit(1);
  }
}

const apiBaseUrl = process.env.PETITIONS_API_URL ?? 'http://localhost:3000';
const dataDir = path.resolve(process.env.CONSOLE_DATA_DIR ?? path.join('data', 'console'));
const port = Number(process.env.CONSOLE_PORT ?? 5180);
const log = (message: string) => console.log(`[console] ${message}`);

const hub = createEventHub((error) => log(`event dropped: ${String(error)}`));
const runtime = createConsoleRuntime({
  dataDir,
  apiBaseUrl,
  redirectUri: process.env.CONSOLE_REDIRECT_URI ?? CONSOLE_LOOPBACK_REDIRECT_URI,
  secrets: createMemorySecretStore(),
  openExternal: async (url) => {
    log(`sign in at ${url}`);
    if (process.env.CONSOLE_OPEN_BROWSER !== '0') await openInBrowser(url);
  },
  notify: (title, body) => log(`notification: ${title}: ${body}`),
  updates: { initial: { kind: 'unsupported', reason: 'The browser console is not updated; pull and rebuild.' }, quitAndInstall: () => undefined },
  createCore: createConsoleCore,
  events: hub.sink,
  log,
});
await runtime.start();
const host = await startBrowserHost({
  rendererDir,
  bridgeScript,
  handlers: runtime.handlers,
  hub,
  csp: consoleCsp({ imageOrigins: [new URL(apiBaseUrl).origin] }),
  port,
  onError: (channel, error) => log(`${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
});
log(`backend ${apiBaseUrl}, data in ${dataDir}`);
log(`staff console on ${host.url} (open it in a browser; only that page can use the console bridge)`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await host.close();
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
