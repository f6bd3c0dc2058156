/**
 * `npm run console:browser`'s host: the console build served on loopback, the preload's API over
 * fetch + server-sent events, usable only by the page it opened (a one-time launch code in the
 * address's fragment, traded for the bridge token, plus our own Origin on every request). The
 * runtime behind it is the real one (console core with SQLite, against the real backend).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BRIDGE_EVENTS_PATH,
  BRIDGE_INVOKE_PATH,
  BRIDGE_LAUNCH_PARAM,
  BRIDGE_LAUNCH_PATH,
  BRIDGE_SCRIPT_PATH,
  BRIDGE_TOKEN_HEADER,
  BRIDGE_TOKEN_STORAGE_KEY,
} from '../../src-shared/console/bridge-protocol.ts';
import type {} from '../../src-renderer/platform/desktop.ts'; // declares window.consoleApi
import { createMemorySecretStore } from '../../src-main/node/auth/secret-store.ts';
import { startBrowserHost, type BrowserHost } from '../../src-main/node/browser-host/browser-host.ts';
import { createEventHub, type EventHub } from '../../src-main/node/browser-host/event-hub.ts';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { createConsoleRuntime, type ConsoleRuntime } from '../../src-main/node/runtime.ts';
import { consoleCsp } from '../../src-main/node/security/app-protocol.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { ensureConsoleBuild, OUT } from './console-build.ts';
import { expectOnPage, launchBrowser, newTestContext } from '../support/chromium.ts';

let stack: Stack;
let runtime: ConsoleRuntime;
let hub: EventHub;
let host: BrowserHost;
let browser: Browser;
let dataDir: string;
const opened: string[] = [];

beforeAll(async () => {
  await ensureConsoleBuild();
  stack = await startStack({ serveWebApp: false });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-host-'));
  hub = createEventHub();
  runtime = createConsoleRuntime({
    dataDir,
    apiBaseUrl: stack.baseUrl,
    redirectUri: 'http://127.0.0.1:1/callback',
    secrets: createMemorySecretStore(),
    openExternal: async (url) => {
      opened.push(url);
    },
    notify: () => undefined,
    updates: { initial: { kind: 'unsupported', reason: 'browser host' }, quitAndInstall: () => undefined },
    createCore: createConsoleCore,
    events: hub.sink,
  });
  await runtime.start();
  host = await startBrowserHost({
    rendererDir: path.join(OUT, 'renderer'),
    bridgeScript: path.join(OUT, 'preload', 'browser-bridge.cjs'),
    handlers: runtime.handlers,
    hub,
    csp: consoleCsp(),
    port: 0,
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await runtime?.close();
  await stack?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function statusWithHost(target: string, hostHeader: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(target, host.url), { method: target === '/' ? 'GET' : 'POST', headers: { host: hostHeader, 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: host.token } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(target === '/' ? undefined : '{"channel":"session:get","request":{}}');
  });
}

/** The page's own origin, as a browser sends it. */
const ownOrigin = () => new URL(host.url).origin;

function invoke(body: unknown, headers: Record<string, string | undefined> = {}, url = new URL(BRIDGE_INVOKE_PATH, host.url)) {
  const all: Record<string, string | undefined> = { 'content-type': 'application/json', origin: ownOrigin(), [BRIDGE_TOKEN_HEADER]: host.token, ...headers };
  return fetch(url, {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    body: JSON.stringify(body),
  });
}

function launch(code: string, headers: Record<string, string> = { origin: ownOrigin() }) {
  return fetch(new URL(BRIDGE_LAUNCH_PATH, host.url), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ launch: code }) });
}

const launchCodeOf = (address: string) => new URLSearchParams(new URL(address).hash.slice(1)).get(BRIDGE_LAUNCH_PARAM)!;

async function statusAndText(pending: Promise<Response>): Promise<[number, string]> {
  const response = await pending;
  return [response.status, await response.text()];
}

describe('the bridge refuses everyone but its page', () => {
  it('answers a call that carries the token and our Origin', async () => {
    const response = await invoke({ channel: 'session:get', request: {} });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, value: { user: null, connection: 'signin_needed' } });
  });

  it('gives a plain local process (curl, node fetch) no token: not in any page, script or answer a GET returns', async () => {
    for (const target of ['/', '/petitions/12', '/index.html', BRIDGE_SCRIPT_PATH, BRIDGE_LAUNCH_PATH, BRIDGE_INVOKE_PATH, BRIDGE_EVENTS_PATH]) {
      const [status, text] = await statusAndText(fetch(new URL(target, host.url)));
      expect(text, target).not.toContain(host.token);
      if (target.startsWith('/__console/') && target !== BRIDGE_SCRIPT_PATH) expect(status, target).toBe(405);
    }
    const page = await (await fetch(host.url)).text();
    expect(page).toContain(`<script src="${BRIDGE_SCRIPT_PATH}"></script>`);
    expect(page).not.toMatch(/console-bridge-token|content="[A-Za-z0-9_-]{43}"/);
  });

  it('refuses a call without our Origin, with a forged one, without the token or with a wrong one', async () => {
    const port = new URL(host.url).port;
    const refusals: [string, Record<string, string | undefined>][] = [
      ['no Origin (curl, node fetch)', { origin: undefined }],
      ['no Origin, same-origin Sec-Fetch-Site claimed', { origin: undefined, 'sec-fetch-site': 'same-origin' }],
      ['forged foreign Origin', { origin: 'https://evil.example' }],
      ['another loopback port', { origin: `http://127.0.0.1:${Number(port) + 1}` }],
      ['the other host name of the same port', { origin: `http://localhost:${port}` }],
      ['opaque Origin', { origin: 'null' }],
      ['cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
      ['no token', { [BRIDGE_TOKEN_HEADER]: undefined }],
      ['wrong token', { [BRIDGE_TOKEN_HEADER]: `${host.token.slice(0, -1)}${host.token.endsWith('x') ? 'y' : 'x'}` }],
    ];
    for (const [label, headers] of refusals) {
      const [status, text] = await statusAndText(invoke({ channel: 'outbox:enqueue', request: { actions: [{ kind: 'site.maintenance', maintenance: true }] } }, headers));
      expect(status, label).toBe(403);
      expect(JSON.parse(text), label).toMatchObject({ ok: false, code: 'forbidden_sender', message: expect.stringContaining('npm run console:browser') });
    }
    // Nothing reached the runtime: no action was queued by any of them.
    const listed = await (await invoke({ channel: 'outbox:list', request: {} })).json();
    expect(listed).toMatchObject({ ok: true, value: { entries: [] } });

    const formPost = await fetch(new URL(BRIDGE_INVOKE_PATH, host.url), { method: 'POST', headers: { 'content-type': 'text/plain', origin: ownOrigin(), [BRIDGE_TOKEN_HEADER]: host.token }, body: '{}' });
    expect(formPost.status).toBe(415);
    await formPost.body?.cancel();

    // DNS rebinding: the browser sends the attacker's host name (fetch cannot fake Host; node:http can).
    for (const target of [BRIDGE_INVOKE_PATH, '/']) {
      expect(await statusWithHost(target, `evil.example:${port}`), target).toBe(421);
    }
  });

  it('opens the event stream only for our Origin with the token', async () => {
    const events = (headers: Record<string, string>) => fetch(new URL(BRIDGE_EVENTS_PATH, host.url), { method: 'POST', headers });
    expect((await statusAndText(events({ [BRIDGE_TOKEN_HEADER]: host.token })))[0], 'no Origin').toBe(403);
    expect((await statusAndText(events({ [BRIDGE_TOKEN_HEADER]: host.token, origin: 'https://evil.example' })))[0], 'forged Origin').toBe(403);
    expect((await statusAndText(events({ origin: ownOrigin() })))[0], 'no token').toBe(403);
    expect((await statusAndText(fetch(new URL(`${BRIDGE_EVENTS_PATH}?token=${host.token}`, host.url))))[0], 'GET').toBe(405);
    const stream = await events({ [BRIDGE_TOKEN_HEADER]: host.token, origin: ownOrigin() });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await expect.poll(() => hub.connections()).toBe(1);
    await stream.body?.cancel();
    await expect.poll(() => hub.connections()).toBe(0);
  });

  it('trades a launch code for the token once, and only from our Origin', async () => {
    const code = launchCodeOf(host.openAddress());
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await statusAndText(launch(code, {})).then(([status]) => status), 'no Origin').toBe(403);
    expect(await statusAndText(launch(code, { origin: 'https://evil.example' })).then(([status]) => status), 'forged Origin').toBe(403);
    expect(await statusAndText(launch(`${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`)).then(([status]) => status), 'guessed code').toBe(403);
    // Refusals did not spend it: the page that opened the address still gets in, exactly once.
    const traded = await launch(code);
    expect(traded.status).toBe(200);
    expect(await traded.json()).toEqual({ token: host.token });
    expect(await statusAndText(launch(code)).then(([status]) => status), 'spent').toBe(403);
    const malformed = await fetch(new URL(BRIDGE_LAUNCH_PATH, host.url), { method: 'POST', headers: { 'content-type': 'application/json', origin: ownOrigin() }, body: JSON.stringify({ launch: code, extra: 1 }) });
    expect(malformed.status).toBe(403);
    await malformed.body?.cancel();
    // Every address is its own code, on the path asked for.
    const deep = host.openAddress('/petitions/12');
    expect(new URL(deep).pathname).toBe('/petitions/12');
    expect(launchCodeOf(deep)).not.toBe(code);
  });

  it('validates payloads with the contract like Electron IPC', async () => {
    const bad = await invoke({ channel: 'data:read', request: { path: 'https://evil.example/' } });
    expect(await bad.json()).toMatchObject({ ok: false, code: 'invalid_request' });
    const encoded = await invoke({ channel: 'data:read', request: { path: '/api/%2e%2e/healthz' } });
    expect(await encoded.json()).toMatchObject({ ok: false, code: 'invalid_request' });
    const unknown = await invoke({ channel: 'shell:exec', request: {} });
    expect(await unknown.json()).toMatchObject({ ok: false, code: 'invalid_request' });
    const external = await invoke({ channel: 'platform:openExternal', request: { url: 'file:///etc/passwd' } });
    expect(await external.json()).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(opened).toEqual([]);
  });

  it('serves the renderer with the CSP, no token in the page, and no files outside the build', async () => {
    const response = await fetch(new URL('/petitions/12', host.url));
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).not.toContain(host.token);
    for (const attempt of ['/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json']) {
      const refused = await fetch(new URL(attempt, host.url));
      expect(refused.status, attempt).toBeGreaterThanOrEqual(400);
      await refused.body?.cancel();
    }
  });
});

describe('the console renderer in Chromium', () => {
  it('gets exactly the preload API, calls the real runtime and receives its events', async () => {
    const context = await newTestContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const address = host.openAddress();
    await page.goto(address);
    await page.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
    // The launch code left the address bar at once; the tab keeps the token for itself.
    expect(page.url()).toBe(host.url);

    const shape = await page.evaluate(() => ({ keys: Object.keys(window.consoleApi ?? {}), frozen: Object.isFrozen(window.consoleApi) }));
    expect(shape).toEqual({ keys: ['invoke', 'on'], frozen: true });

    const session = await page.evaluate(() => window.consoleApi!.invoke('session:get', {}));
    expect(session).toMatchObject({ ok: true, value: { user: null, connection: 'signin_needed', queuedForOthers: [] } });

    // Through to the console core, which reads staff data only for a signed-in user.
    const read = await page.evaluate(() => window.consoleApi!.invoke('data:read', { path: '/api/petitions?state=open' }));
    expect(read).toMatchObject({ ok: false, code: 'not_signed_in' });
    const outbox = await page.evaluate(() => window.consoleApi!.invoke('outbox:list', {}));
    expect(outbox).toEqual({ ok: true, value: { entries: [], summary: { queued: 0, sending: 0, attention: 0 } } });

    await page.evaluate(() => {
      (window as unknown as { seen: unknown[] }).seen = [];
      window.consoleApi!.on('update:changed', (status) => (window as unknown as { seen: unknown[] }).seen.push(status));
    });
    await expect.poll(() => hub.connections()).toBe(1);
    hub.sink.emit('update:changed', { state: 'ready', version: '9.9.9', message: 'test' });
    // An event that fails its schema never reaches the page.
    hub.sink.emit('update:changed', { state: 'bogus' } as never);
    await page.waitForFunction(() => (window as unknown as { seen: unknown[] }).seen.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await page.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual([{ state: 'ready', version: '9.9.9', message: 'test' }]);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), BRIDGE_TOKEN_STORAGE_KEY)).toBe(host.token);

    // A reload, a link within the tab, even the spent address again: the tab keeps its bridge.
    for (const again of [() => page.reload(), () => page.goto(new URL('/petitions/12', host.url).href), () => page.goto(address)]) {
      await again();
      await page.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
      expect(await page.evaluate(() => window.consoleApi!.invoke('session:get', {}))).toMatchObject({ ok: true });
    }
    expect(errors).toEqual([]);
  });

  it('a tab opened without the printed address, or with a spent one, gets no bridge and says where to go', async () => {
    const spent = host.openAddress();
    const first = await newTestContext(browser);
    const firstPage = await first.newPage();
    await firstPage.goto(spent);
    await firstPage.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
    expect(await firstPage.evaluate(() => window.consoleApi!.invoke('session:get', {}))).toMatchObject({ ok: true });

    for (const [label, target] of [['no address', host.url], ['spent address', spent]] as const) {
      const context = await newTestContext(browser);
      const page = await context.newPage();
      await page.goto(target);
      await page.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
      expect(await page.evaluate(() => window.consoleApi!.invoke('outbox:list', {})), label).toMatchObject({ ok: false, code: 'forbidden_sender' });
      await expectOnPage(page.getByText('The console could not start: This page cannot use the console')).toBeVisible();
      expect(await page.evaluate((key) => sessionStorage.getItem(key), BRIDGE_TOKEN_STORAGE_KEY), label).toBeNull();
      await context.close();
    }
  });

  it('loads its scripts and styles on a deep link too (root-absolute asset URLs)', async () => {
    const context = await newTestContext(browser);
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      // Scripts, styles and chunks; /api/ reads are not the console origin's business (404 by design).
      if (response.status() >= 400 && !new URL(response.url()).pathname.startsWith('/api/')) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(host.openAddress('/petitions/12/some/deep/route'));
    await page.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
    // The console chunk (a dynamic import) has rendered; the event stream stays open, so never "network idle".
    await expectOnPage(page.getByRole('heading', { name: 'Petitions staff console' })).toBeVisible();
    await page.waitForLoadState('load');
    expect(failed).toEqual([]);
    const loaded = await page.evaluate(() => ({
      stylesheets: document.styleSheets.length,
      scripts: performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/assets/')).length,
    }));
    expect(loaded.stylesheets).toBeGreaterThan(0);
    expect(loaded.scripts).toBeGreaterThan(0);
  });

  it('a page on another origin cannot use the bridge', async () => {
    const context = await newTestContext(browser);
    const page = await context.newPage();
    // Another loopback origin (same host, different port): the backend's own origin.
    await page.goto(`${stack.baseUrl}/api/auth/session`);
    const outcome = await page.evaluate(async ({ url, header }) => {
      try {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', [header]: 'guess' }, body: '{"channel":"session:get","request":{}}' });
        return `status ${response.status}`;
      } catch (error) {
        return `blocked: ${String(error)}`;
      }
    }, { url: new URL(BRIDGE_INVOKE_PATH, host.url).href, header: BRIDGE_TOKEN_HEADER });
    expect(outcome).toMatch(/^blocked/);
  });
});
