/**
 * `npm run console:browser`'s host: the console build served on loopback, the preload's API over
 * fetch + server-sent events, usable only by the page it served. The runtime behind it is the real
 * one (console core with SQLite, against the real backend).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_EVENTS_PATH, BRIDGE_INVOKE_PATH, BRIDGE_TOKEN_HEADER } from '../../src-shared/console/bridge-protocol.ts';
import { createMemorySecretStore } from '../../src-main/node/auth/secret-store.ts';
import { startBrowserHost, type BrowserHost } from '../../src-main/node/browser-host/browser-host.ts';
import { createEventHub, type EventHub } from '../../src-main/node/browser-host/event-hub.ts';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { createConsoleRuntime, type ConsoleRuntime } from '../../src-main/node/runtime.ts';
import { consoleCsp } from '../../src-main/node/security/app-protocol.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { launchBrowser } from '../web/helpers.ts';
import { ensureConsoleBuild, OUT } from './console-build.ts';

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

function invoke(body: unknown, headers: Record<string, string> = {}, url = new URL(BRIDGE_INVOKE_PATH, host.url)) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: host.token, ...headers },
    body: JSON.stringify(body),
  });
}

describe('the bridge refuses everyone but its page', () => {
  it('answers a call that carries the token', async () => {
    const response = await invoke({ channel: 'session:get', request: {} });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, value: { user: null, connection: 'signin_needed' } });
  });

  it('refuses a missing or wrong token, another origin, a cross-site fetch, and a rebinding host name', async () => {
    const refusals: [string, Promise<Response>, number][] = [
      ['no token', fetch(new URL(BRIDGE_INVOKE_PATH, host.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"channel":"session:get","request":{}}' }), 403],
      ['wrong token', invoke({ channel: 'session:get', request: {} }, { [BRIDGE_TOKEN_HEADER]: `${host.token.slice(0, -1)}x` }), 403],
      ['foreign origin', invoke({ channel: 'session:get', request: {} }, { origin: 'https://evil.example' }), 403],
      ['cross-site fetch', invoke({ channel: 'session:get', request: {} }, { 'sec-fetch-site': 'cross-site' }), 403],
      ['form post', fetch(new URL(BRIDGE_INVOKE_PATH, host.url), { method: 'POST', headers: { 'content-type': 'text/plain', [BRIDGE_TOKEN_HEADER]: host.token }, body: '{}' }), 415],
    ];
    for (const [label, pending, status] of refusals) {
      const response = await pending;
      expect(response.status, label).toBe(status);
      await response.body?.cancel();
    }
    const events = await fetch(new URL(`${BRIDGE_EVENTS_PATH}?token=nope`, host.url));
    expect(events.status).toBe(403);
    // DNS rebinding: the browser sends the attacker's host name (fetch cannot fake Host; node:http can).
    for (const target of [BRIDGE_INVOKE_PATH, '/']) {
      expect(await statusWithHost(target, `evil.example:${new URL(host.url).port}`), target).toBe(421);
    }
  });

  it('validates payloads with the contract like Electron IPC', async () => {
    const bad = await invoke({ channel: 'data:read', request: { path: 'https://evil.example/' } });
    expect(await bad.json()).toMatchObject({ ok: false, code: 'invalid_request' });
    const unknown = await invoke({ channel: 'shell:exec', request: {} });
    expect(await unknown.json()).toMatchObject({ ok: false, code: 'invalid_request' });
    const external = await invoke({ channel: 'platform:openExternal', request: { url: 'file:///etc/passwd' } });
    expect(await external.json()).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(opened).toEqual([]);
  });

  it('serves the renderer with the CSP, a fresh token per page, and no files outside the build', async () => {
    const response = await fetch(new URL('/petitions/12', host.url));
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain(`content="${host.token}"`);
    for (const attempt of ['/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json']) {
      const refused = await fetch(new URL(attempt, host.url));
      expect(refused.status, attempt).toBeGreaterThanOrEqual(400);
      await refused.body?.cancel();
    }
  });
});

describe('the console renderer in Chromium', () => {
  it('gets exactly the preload API, calls the real runtime and receives its events', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(host.url);
    await page.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');

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
    expect(errors).toEqual([]);
    await context.close();
  });

  it('loads its scripts and styles on a deep link too (root-absolute asset URLs)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      // Scripts, styles and chunks; /api/ reads are not the console origin's business (404 by design).
      if (response.status() >= 400 && !new URL(response.url()).pathname.startsWith('/api/')) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(new URL('/petitions/12/some/deep/route', host.url).href);
    await page.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
    await page.waitForLoadState('networkidle');
    expect(failed).toEqual([]);
    const loaded = await page.evaluate(() => ({
      stylesheets: document.styleSheets.length,
      scripts: performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/assets/')).length,
    }));
    expect(loaded.stylesheets).toBeGreaterThan(0);
    expect(loaded.scripts).toBeGreaterThan(0);
    await context.close();
  });

  it('a page on another origin cannot use the bridge', async () => {
    const context = await browser.newContext();
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
    await context.close();
  });
});
