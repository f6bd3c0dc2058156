/**
 * `npm run smoke:console`: the Electron smoke test (docs/operations.md#the-electron-smoke-test). The
 * release workflow runs it on each OS before publishing (Linux under xvfb-run); it runs locally
 * wherever the Electron binary is installed (`npx install-electron`).
 *
 * 1. Starts a backend in this process: the real server on a fresh SQLite file with the local OpenID
 *    provider (tests/support/stack.ts), a current term and a petition awaiting a government response.
 * 2. Launches the built console (`out/`, built first when missing) with Playwright's Electron support,
 *    pointed at that backend (PETITIONS_API_URL, CONSOLE_REDIRECT_URI, data in a temporary folder).
 * 3. Signs a staff persona in through the loopback flow: the console asks the system browser to open
 *    the provider (shell.openExternal, replaced here by a recorder), a cookie-jar HTTP client plays
 *    the browser, presses the persona and follows the redirect to the console's loopback listener.
 * 4. Answers the petition in the console's own window and waits until the outbox has sent it.
 * 5. Checks the answer on the backend. Exit 0 on success; 1 with the reason (and a screenshot) otherwise.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from 'playwright';
import { ensureConsoleBuild, ROOT } from '../console-shell/console-build.ts';
import { CookieJar, follow, pressPersona, expectProviderPage } from '../server-auth/browser.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { freePort, startStack, type Stack } from '../support/stack.ts';
import { answerPetitionInConsole, responseOnBackendOnceAnswered, SMOKE_PERSONA, SMOKE_RESPONSE } from './answer-petition.ts';

const SIGN_IN_WAIT_MS = 20_000;

declare global {
  var __smokeOpened: string[] | undefined;
}

/** Where `npx install-electron` put the binary (or ELECTRON_OVERRIDE_DIST_PATH), without triggering a download. */
function electronBinary(): string {
  const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = path.join(electronDir, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? path.join(override, relative ?? 'electron') : relative ? path.join(electronDir, 'dist', relative) : null;
  if (!binary || !fs.existsSync(binary)) {
    throw new Error(
      'The Electron binary is not installed (node_modules/electron/dist is missing). Run `npx install-electron` on a machine that can download it ' +
        '(or point ELECTRON_OVERRIDE_DIST_PATH at an unpacked Electron 45), then run this again.',
    );
  }
  return binary;
}

async function signIn(app: ElectronApplication, window: Page, stack: Stack): Promise<void> {
  // The system browser, for this run: record what the console asks it to open.
  await app.evaluate(({ shell }) => {
    globalThis.__smokeOpened = [];
    shell.openExternal = async (url: string) => {
      globalThis.__smokeOpened!.push(url);
    };
  });
  await window.getByRole('button', { name: 'Sign in with ROBLOX' }).click();
  let opened: string | undefined;
  for (const deadline = Date.now() + SIGN_IN_WAIT_MS; !opened; ) {
    opened = (await app.evaluate(() => globalThis.__smokeOpened ?? []))[0];
    if (!opened && Date.now() > deadline) throw new Error('the console never asked the browser to open the sign-in page');
    if (!opened) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const jar = new CookieJar();
  const providerPage = expectProviderPage(await follow(jar, new URL(opened), stack.baseUrl));
  // Pressing the persona redirects to the console's loopback address; following it delivers code and state there.
  const landing = await pressPersona(jar, providerPage, SMOKE_PERSONA, stack.baseUrl);
  if (landing.kind !== 'page' || !/You can close this tab/.test(landing.html)) {
    throw new Error(`the console's sign-in listener did not take the answer (landed on ${landing.url.href})`);
  }
}

async function main(): Promise<void> {
  const executablePath = electronBinary();
  console.log('Building the console when out/ is missing or stale…');
  await ensureConsoleBuild();

  const redirect = `http://127.0.0.1:${await freePort()}/callback`;
  const stack = await startStack({ serveWebApp: false, consoleRedirectUris: [redirect] });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-console-smoke-'));
  let app: ElectronApplication | null = null;
  let window: Page | null = null;
  try {
    await seedTerm(stack.context);
    const petition = await seedPetition(stack.context, { title: 'Smoke test: longer library opening hours', signatures: 12, status: 'awaiting_government_response' });
    console.log(`Backend on ${stack.baseUrl}; petition #${petition.id} awaits a response.`);

    app = await electron.launch({
      executablePath,
      args: [
        // Containers and CI runners often cannot give Chromium's sandbox what it needs.
        ...(process.platform === 'linux' ? ['--no-sandbox'] : []),
        // Keep the sealed session and window state out of the real user's profile.
        `--user-data-dir=${path.join(dataDir, 'user-data')}`,
        ROOT,
      ],
      env: {
        ...(process.env as Record<string, string>),
        PETITIONS_API_URL: stack.baseUrl,
        CONSOLE_REDIRECT_URI: redirect,
        CONSOLE_DATA_DIR: path.join(dataDir, 'console-data'),
      },
      timeout: 60_000,
    });
    window = await app.firstWindow();
    console.log(`Electron ${await app.evaluate(() => process.versions.electron)} started the console.`);
    await signIn(app, window, stack);
    console.log(`Signed in as ${SMOKE_PERSONA} through the loopback flow.`);
    await answerPetitionInConsole(window, petition);
    const after = await responseOnBackendOnceAnswered(stack.baseUrl, petition.id);
    if (after.governmentResponse !== SMOKE_RESPONSE) {
      throw new Error(`the backend shows ${JSON.stringify(after.governmentResponse)} as the response, not the one sent`);
    }
    console.log(`Smoke test passed: petition #${petition.id} is "${after.status}" with the console's response.`);
  } catch (error) {
    if (window) await window.screenshot({ path: path.join(ROOT, 'console-smoke-failure.png') }).catch(() => {});
    throw error;
  } finally {
    await app?.close().catch(() => {});
    await stack.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`Smoke test failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
