/**
 * `npm run console:browser`: the console's main-process services under plain Node, with the console
 * renderer build served on http://127.0.0.1:$CONSOLE_PORT (default 5180) to any browser.
 *
 *   PETITIONS_API_URL   the backend (default http://localhost:3000, i.e. `npm start`)
 *   CONSOLE_DATA_DIR    the console's SQLite data (default ./data/console)
 *   CONSOLE_PORT        where the console is served (default 5180)
 *   CONSOLE_REDIRECT_URI  the sign-in loopback address registered at the provider
 *   CONSOLE_OPEN_BROWSER=0  only print the console's and the sign-in address (headless machines, tests)
 *
 * The console's address carries a one-time launch code in its fragment: the tab that opens it gets
 * the bridge, and a fresh address is printed for the next tab (docs/console-security.md#the-consolebrowser-bridge).
 * The session token stays in this process's memory only (there is no OS keyring to seal it with),
 * so each run starts signed out. Desktop notifications are printed here and shown by the page as the
 * browser's notifications (docs/console-team.md#desktop-notifications).
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
const openBrowser = process.env.CONSOLE_OPEN_BROWSER !== '0';

const hub = createEventHub((error) => log(`event dropped: ${String(error)}`));
const runtime = createConsoleRuntime({
  dataDir,
  apiBaseUrl,
  redirectUri: process.env.CONSOLE_REDIRECT_URI ?? CONSOLE_LOOPBACK_REDIRECT_URI,
  secrets: createMemorySecretStore(),
  openExternal: async (url) => {
    log(`sign in at ${url}`);
    if (openBrowser) await openInBrowser(url);
  },
  // The page shows it with the browser's own notifications (the bridge script asks for permission on a first click).
  notify: (title, body) => {
    log(`notification: ${title}: ${body}`);
    hub.sink.emit('platform:notification', { title, body });
  },
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
  // Only a page can trade a code, and only once the host is listening, so `host` is set by then.
  onLaunch: () => log(`console opened in a browser tab; for another tab open ${host.openAddress()}`),
  onError: (channel, error) => log(`${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
});
log(`backend ${apiBaseUrl}, data in ${dataDir}`);
const address = host.openAddress();
log(`staff console on ${address} (this address opens one tab; only the console's own tabs can use its bridge)`);
if (openBrowser) await openInBrowser(address);

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
