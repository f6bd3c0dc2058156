/**
 * `npm run console:browser` end to end: its entry (src-main/node/browser-host/main.ts) as a child
 * process against the real backend and provider; the console page in Chromium signs in through a
 * second browser context standing in for the user's own browser, then reads staff data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, seedPetition, seedTerm, startStack, type Stack } from '../support/stack.ts';
import { launchBrowser } from '../web/helpers.ts';
import { ensureConsoleBuild, ROOT } from './console-build.ts';

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
    const [, consoleUrl] = await waitForOutput(/staff console on (http:\/\/127\.0\.0\.1:\d+\/)/);
    expect(output).toContain(`data in ${dataDir}`);

    const consoleContext = await browser.newContext();
    const consolePage = await consoleContext.newPage();
    const errors: string[] = [];
    consolePage.on('pageerror', (error) => errors.push(error.message));
    await consolePage.goto(consoleUrl!);
    await consolePage.waitForFunction(() => typeof window.consoleApi?.invoke === 'function');
    expect(await consolePage.evaluate(() => window.consoleApi!.invoke('session:get', {}))).toMatchObject({ ok: true, value: { user: null } });

    await consolePage.evaluate(() => {
      const w = window as unknown as { sessions: unknown[] };
      w.sessions = [];
      window.consoleApi!.on('session:changed', (session) => w.sessions.push(session));
    });

    // The console asks for sign-in; the host prints where to go (a desktop would open it).
    const pendingSignIn = consolePage.evaluate(() => window.consoleApi!.invoke('session:signIn', {}));
    const [, authUrl] = await waitForOutput(/sign in at (\S+)/);

    const userBrowser = await browser.newContext();
    const userPage = await userBrowser.newPage();
    await userPage.goto(authUrl!);
    await userPage.getByRole('button', { name: 'Cabinet Minister', exact: true }).click();
    await userPage.getByText('Signed in to the Petitions console as Morgan Minister').waitFor();

    const signedIn = await pendingSignIn;
    expect(signedIn).toMatchObject({ ok: true, value: { user: { displayName: 'Morgan Minister' }, connection: 'online' } });

    // The page heard about it over the event stream too.
    await consolePage.waitForFunction(() =>
      (window as unknown as { sessions: { user: { displayName: string } | null }[] }).sessions.some((s) => s.user?.displayName === 'Morgan Minister'),
    );

    const read = await consolePage.evaluate(() => window.consoleApi!.invoke('data:read', { path: '/api/petitions' }));
    expect(read.ok).toBe(true);
    expect(JSON.stringify(read)).toContain('Console browser petition');
    expect(errors).toEqual([]);
    await userBrowser.close();
    await consoleContext.close();
  });
});
