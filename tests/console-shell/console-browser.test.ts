/**
 * `npm run console:browser` end to end: its entry (src-main/node/browser-host/main.ts) as a child
 * process against the real backend and provider; the console page in Chromium signs in through a
 * second browser context standing in for the user's own browser, then reads staff data. A plain
 * local process (node fetch, as curl would) cannot act as the signed-in user meanwhile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BRIDGE_INVOKE_PATH,
  BRIDGE_LAUNCH_PARAM,
  BRIDGE_LAUNCH_PATH,
  BRIDGE_TOKEN_HEADER,
  BRIDGE_TOKEN_STORAGE_KEY,
} from '../../src-shared/console/bridge-protocol.ts';
import type {} from '../../src-renderer/platform/desktop.ts'; // declares window.consoleApi
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { freePort, startStack, type Stack } from '../support/stack.ts';
import { ensureConsoleBuild, ROOT } from './console-build.ts';
import { expectOnPage, launchBrowser, newTestContext } from '../support/chromium.ts';

let stack: Stack;
let child: ChildProcess;
let browser: Browser;
let dataDir: string;
let output = '';

function waitForOutput(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const match = output.match(pattern);
      if (match) return resolve(match);
      if (Date.now() - started > timeoutMs) return reject(new Error(`no ${pattern} in:\n${output}`));
      setTimeout(check, 50);
    };
    check();
  });
}

beforeAll(async () => {
  await ensureConsoleBuild();
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  stack = await startStack({ serveWebApp: false, consoleRedirectUris: [redirectUri] });
  await seedTerm(stack.context);
  await seedPetition(stack.context, { title: 'Console browser petition' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-browser-'));
  child = spawn(process.execPath, [path.join(ROOT, 'src-main/node/browser-host/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PETITIONS_API_URL: stack.baseUrl,
      CONSOLE_PORT: '0',
      CONSOLE_DATA_DIR: dataDir,
      CONSOLE_REDIRECT_URI: redirectUri,
      CONSOLE_OPEN_BROWSER: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await stack?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run console:browser', () => {
  it('serves the console, signs a minister in through the browser, and reads staff data through the bridge', async () => {
    const [, consoleUrl] = await waitForOutput(/staff console on (http:\/\/127\.0\.0\.1:\d+\/#console-launch=[A-Za-z0-9_-]{43}) /);
    expect(output).toContain(`data in ${dataDir}`);
    const origin = new URL(consoleUrl!).origin;

    const consoleContext = await newTestContext(browser);
    const consolePage = await consoleContext.newPage();
    const errors: string[] = [];
    consolePage.on('pageerror', (error) => errors.push(error.message));
    await consolePage.goto(consoleUrl!);
    await consolePage.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
    expect(consolePage.url()).toBe(`${origin}/`);
    expect(await consolePage.evaluate(() => window.consoleApi!.invoke('session:get', {}))).toMatchObject({ ok: true, value: { user: null } });

    await consolePage.evaluate(() => {
      const w = window as unknown as { sessions: unknown[] };
      w.sessions = [];
      window.consoleApi!.on('session:changed', (session) => w.sessions.push(session));
    });

    // The console asks for sign-in; the host prints where to go (a desktop would open it).
    const pendingSignIn = consolePage.evaluate(() => window.consoleApi!.invoke('session:signIn', {}));
    const [, authUrl] = await waitForOutput(/sign in at (\S+)/);

    const userBrowser = await newTestContext(browser);
    const userPage = await userBrowser.newPage();
    await userPage.goto(authUrl!);
    await userPage.getByRole('button', { name: 'Cabinet Minister', exact: true }).click();
    await expectOnPage(userPage.getByText('Signed in to the Petitions console as Morgan Minister')).toBeVisible();

    const signedIn = await pendingSignIn;
    expect(signedIn).toMatchObject({ ok: true, value: { user: { displayName: 'Morgan Minister' }, connection: 'online' } });

    // The page heard about it over the event stream too.
    await consolePage.waitForFunction(() =>
      (window as unknown as { sessions: { user: { displayName: string } | null }[] }).sessions.some((s) => s.user?.displayName === 'Morgan Minister'),
    );

    const read = await consolePage.evaluate(() => window.consoleApi!.invoke('data:read', { path: '/api/petitions' }));
    expect(read.ok).toBe(true);
    expect(JSON.stringify(read)).toContain('Console browser petition');

    // The address was spent by the page; the host printed a fresh one for another tab.
    const [, nextAddress] = await waitForOutput(/console opened in a browser tab; for another tab open (\S+)/);
    expect(nextAddress).not.toBe(consoleUrl);
    expect(new URL(nextAddress!).origin).toBe(origin);

    // Meanwhile a plain local process (node fetch, as curl would) tries to act as the minister.
    const token = (await consolePage.evaluate((key) => sessionStorage.getItem(key), BRIDGE_TOKEN_STORAGE_KEY))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const servedPage = await (await fetch(origin)).text();
    expect(servedPage).not.toContain(token);
    const spentCode = new URLSearchParams(new URL(consoleUrl!).hash.slice(1)).get(BRIDGE_LAUNCH_PARAM);
    const relaunch = await fetch(new URL(BRIDGE_LAUNCH_PATH, origin), { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ launch: spentCode }) });
    expect(relaunch.status, 'the spent address (a process list shows what a browser was started with)').toBe(403);
    await relaunch.body?.cancel();
    const maintenance = JSON.stringify({ channel: 'outbox:enqueue', request: { actions: [{ kind: 'site.maintenance', maintenance: true }] } });
    const attempts: [string, Record<string, string>][] = [
      ['no Origin, no token', {}],
      ['our Origin, no token', { origin }],
      ['a stolen token without Origin', { [BRIDGE_TOKEN_HEADER]: token }],
      ['a stolen token with a forged Origin', { [BRIDGE_TOKEN_HEADER]: token, origin: 'https://evil.example' }],
    ];
    for (const [label, headers] of attempts) {
      const response = await fetch(new URL(BRIDGE_INVOKE_PATH, origin), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: maintenance });
      expect(response.status, label).toBe(403);
      expect(await response.json(), label).toMatchObject({ ok: false, code: 'forbidden_sender' });
    }
    const queued = await consolePage.evaluate(() => window.consoleApi!.invoke('outbox:list', {}));
    expect(queued).toMatchObject({ ok: true, value: { entries: [] } });
    expect(errors).toEqual([]);
  });
});
