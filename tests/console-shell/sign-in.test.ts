/**
 * The console's sign-in against the real backend and the real local OpenID provider: the loopback
 * listener, the verifier, the bearer token kept in main (never in a handler's answer), 401 →
 * signin_needed, restore from the sealed store, sign-out revoking the backend session, and queued
 * actions that never travel with another staff member's token.
 * The "system browser" follows the provider's redirects with an HTTP client and presses the
 * persona button on the provider's page, then lands on our loopback listener.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcEvent } from '../../src-shared/console/ipc-contract.ts';
import { createSecretStore, type SecretCipher, type SecretStore } from '../../src-main/node/auth/secret-store.ts';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { createConsoleRuntime, type ConsoleRuntime } from '../../src-main/node/runtime.ts';
import { CookieJar, expectProviderPage, follow, pressPersona } from '../server-auth/browser.ts';
import { personaId } from '../support/fixtures.ts';
import { freePort, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let redirectUri: string;
let dir: string;
const cipherKey = randomBytes(32);

/** AES-GCM standing in for the OS keyring (safeStorage exists only inside Electron). */
const cipher: SecretCipher = {
  isEncryptionAvailable: () => true,
  selectedBackend: () => 'gnome_libsecret',
  encrypt(plain) {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', cipherKey, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]);
  },
  decrypt(sealed) {
    const d = createDecipheriv('aes-256-gcm', cipherKey, sealed.subarray(0, 12));
    d.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([d.update(sealed.subarray(28)), d.final()]).toString('utf8');
  },
};

interface Harness {
  runtime: ConsoleRuntime;
  secrets: SecretStore;
  events: { event: IpcEvent; payload: unknown }[];
  /** Who the next sign-in picks on the provider's page. */
  persona: string;
  /** What the browser showed at the end of the last sign-in. */
  browserPages: Promise<string>[];
  /** Cuts the staff API (not sign-in) off, as a network outage would. */
  setBackendReachable(reachable: boolean): void;
  /** Replaces the system browser for one test. */
  openExternal: ((url: string) => Promise<void>) | null;
}

async function driveBrowser(url: string, persona: string): Promise<string> {
  const jar = new CookieJar();
  const page = expectProviderPage(await follow(jar, new URL(url), stack.baseUrl));
  const landing = await pressPersona(jar, page, persona, stack.baseUrl);
  // The redirect to our loopback listener was followed; its answer is the page the user sees.
  if (landing.kind !== 'page') throw new Error(`the browser ended at ${landing.url.href}`);
  return landing.html;
}

function harness(options: { dataDir: string; secretFile: string; signInTimeoutMs?: number }): Harness {
  const events: Harness['events'] = [];
  let reachable = true;
  const h: Harness = {
    runtime: null as unknown as ConsoleRuntime,
    secrets: createSecretStore(options.secretFile, cipher),
    events,
    persona: 'Cabinet Minister',
    browserPages: [],
    setBackendReachable(value) {
      reachable = value;
    },
    openExternal: null,
  };
  const edgeFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (!reachable && !url.pathname.startsWith('/api/auth/')) throw new TypeError('fetch failed');
    return fetch(input, init);
  };
  h.runtime = createConsoleRuntime({
    dataDir: options.dataDir,
    apiBaseUrl: stack.baseUrl,
    redirectUri,
    secrets: h.secrets,
    // Like shell.openExternal: returns once the browser has the URL; the user's journey goes on.
    openExternal: async (url) => {
      if (h.openExternal) return h.openExternal(url);
      h.browserPages.push(driveBrowser(url, h.persona));
    },
    notify: () => undefined,
    updates: { initial: { kind: 'unsupported', reason: 'test' }, quitAndInstall: () => undefined },
    createCore: (coreOptions) => createConsoleCore({ ...coreOptions, fetch: edgeFetch }),
    events: { emit: (event, payload) => events.push({ event, payload }) },
    signInTimeoutMs: options.signInTimeoutMs,
  });
  return h;
}

async function sessionValid(token: string): Promise<boolean> {
  const response = await fetch(new URL('/api/auth/session', stack.baseUrl), { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { user: unknown };
  return body.user !== null;
}

beforeAll(async () => {
  redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  stack = await startStack({ serveWebApp: false, consoleRedirectUris: [redirectUri] });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-sign-in-'));
});

afterAll(async () => {
  await stack?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('console sign-in through the system browser', () => {
  it('signs in, keeps the token in main only, survives a restart, pauses on 401 and revokes on sign-out', async () => {
    const secretFile = path.join(dir, 'a', 'session.sealed');
    const first = harness({ dataDir: path.join(dir, 'a'), secretFile });
    await first.runtime.start();
    expect(await first.runtime.handlers['session:get']({})).toMatchObject({ user: null, connection: 'signin_needed' });

    const session = await first.runtime.handlers['session:signIn']({});
    expect(session).toMatchObject({ user: { id: personaId('Cabinet Minister'), displayName: 'Morgan Minister' }, connection: 'online', queuedForOthers: [] });
    expect(await first.browserPages[0]).toContain('Signed in to the Petitions console as Morgan Minister');
    const token = first.runtime.auth.current()?.token ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionValid(token)).toBe(true);
    // The renderer never sees the token: not in answers, not in events; on disk only sealed.
    expect(JSON.stringify(session)).not.toContain(token);
    expect(JSON.stringify(first.events)).not.toContain(token);
    expect(fs.readFileSync(secretFile).includes(Buffer.from(token))).toBe(false);
    expect(first.events.some((e) => e.event === 'session:changed')).toBe(true);

    // Staff reads now go through the core with the bearer token.
    const read = await first.runtime.handlers['data:read']({ path: '/api/auth/session' });
    expect(read).toMatchObject({ fromCache: false, data: { user: { id: personaId('Cabinet Minister') } } });

    // A restart restores the sealed session and checks it with the backend.
    await first.runtime.close();
    const second = harness({ dataDir: path.join(dir, 'a'), secretFile });
    await second.runtime.start();
    expect(await second.runtime.handlers['session:get']({})).toMatchObject({ user: { displayName: 'Morgan Minister' }, connection: 'online' });
    expect(second.runtime.auth.current()?.token).toBe(token);

    // Sync saw a 401 with this token: sign-in needed, nothing is sent meanwhile.
    second.runtime.auth.reportUnauthorized('some-other-token');
    expect(second.runtime.auth.current()).not.toBeNull();
    second.runtime.auth.reportUnauthorized(token);
    expect(second.runtime.auth.current()).toBeNull();
    expect(await second.runtime.handlers['session:get']({})).toMatchObject({ user: { displayName: 'Morgan Minister' }, connection: 'signin_needed' });

    // Sign-out ends the backend session and forgets the sealed token.
    expect(await second.runtime.handlers['session:signOut']({ discardQueued: false })).toMatchObject({ user: null, connection: 'signin_needed' });
    expect(await sessionValid(token)).toBe(false);
    expect(fs.existsSync(secretFile)).toBe(false);
    await second.runtime.close();
  });

  it('ignores stray requests to the sign-in address (a page can send them) while the real sign-in completes', async () => {
    const h = harness({ dataDir: path.join(dir, 'b'), secretFile: path.join(dir, 'b', 'session.sealed') });
    await h.runtime.start();
    const strayAnswers: { url: string; status: number; body: string }[] = [];
    // A local page races the provider to the listener: with codes and states of its own, none, or
    // ours twice; then the user's browser comes back with the real answer.
    h.openExternal = async (url) => {
      const state = new URL(url).searchParams.get('state')!;
      const strays = [
        `${redirectUri}?code=x&state=forged`,
        `${redirectUri}?code=x`,
        `${redirectUri}?error=access_denied&state=forged`,
        `${redirectUri}?code=x&state=${state.slice(0, -1)}`,
        `${redirectUri}?code=x&state=${state}&state=forged`,
      ];
      const journey = async () => {
        for (const stray of strays) {
          const response = await fetch(stray);
          strayAnswers.push({ url: stray, status: response.status, body: await response.text() });
        }
        return driveBrowser(url, h.persona);
      };
      h.browserPages.push(journey());
    };
    const session = await h.runtime.handlers['session:signIn']({});
    expect(session).toMatchObject({ user: { displayName: 'Morgan Minister' }, connection: 'online' });
    expect(await h.browserPages[0]).toContain('Signed in to the Petitions console as Morgan Minister');
    expect(strayAnswers).toHaveLength(5);
    for (const answer of strayAnswers) {
      expect(answer.status, answer.url).toBe(400);
      expect(answer.body, answer.url).toContain('Nothing was changed');
    }
    await h.runtime.handlers['session:signOut']({ discardQueued: false });
    await h.runtime.close();
  });

  it('times out when only strays come back, then frees the port for the next sign-in', async () => {
    const h = harness({ dataDir: path.join(dir, 'b2'), secretFile: path.join(dir, 'b2', 'session.sealed'), signInTimeoutMs: 1_500 });
    await h.runtime.start();
    h.openExternal = async () => {
      void fetch(`${redirectUri}?code=forged&state=forged`).then((r) => r.text());
    };
    let started = Date.now();
    await expect(h.runtime.handlers['session:signIn']({})).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(h.runtime.auth.current()).toBeNull();

    h.openExternal = async () => undefined;
    started = Date.now();
    await expect(h.runtime.handlers['session:signIn']({})).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);

    // The port is free again: a real sign-in works right after.
    h.openExternal = null;
    await h.runtime.handlers['session:signIn']({});
    expect(h.runtime.auth.user()?.displayName).toBe('Morgan Minister');
    // Signing in again ends the session held before.
    const firstToken = h.runtime.auth.current()!.token;
    await h.runtime.handlers['session:signIn']({});
    expect(h.runtime.auth.current()!.token).not.toBe(firstToken);
    await expect.poll(() => sessionValid(firstToken)).toBe(false);
    expect(await sessionValid(h.runtime.auth.current()!.token)).toBe(true);
    await h.runtime.handlers['session:signOut']({ discardQueued: false });
    await h.runtime.close();
  });

  it("never sends one staff member's queued actions with another's token; sign-out can discard them", async () => {
    const h = harness({ dataDir: path.join(dir, 'c'), secretFile: path.join(dir, 'c', 'session.sealed') });
    await h.runtime.start();
    h.persona = 'System Administrator';
    await h.runtime.handlers['session:signIn']({});
    const adminId = personaId('System Administrator');

    h.setBackendReachable(false);
    const queued = await h.runtime.handlers['outbox:enqueue']({ actions: [{ kind: 'site.maintenance', maintenance: true }], batch: false });
    expect(queued.entries[0]).toMatchObject({ actorUserId: adminId });
    await h.runtime.handlers['sync:now']({});

    await h.runtime.handlers['session:signOut']({ discardQueued: false });
    h.persona = 'Prime Minister';
    const minister = await h.runtime.handlers['session:signIn']({});
    expect(minister.queuedForOthers).toEqual([{ actorUserId: adminId, count: 1 }]);

    h.setBackendReachable(true);
    await h.runtime.handlers['sync:now']({});
    await (h.runtime.core as ReturnType<typeof createConsoleCore>).whenIdle();
    // Still queued for the administrator; the site was not put into maintenance with the minister's token.
    const listed = await h.runtime.handlers['outbox:list']({ limit: 10 });
    expect(listed.entries.map((e) => [e.actorUserId, e.state])).toEqual([[adminId, expect.not.stringMatching(/applied|cancelled/)]]);
    expect(await stack.context.siteSettings.isMaintenanceOn()).toBe(false);

    // The administrator comes back and chooses to sign out discarding what they queued.
    await h.runtime.handlers['session:signOut']({ discardQueued: false });
    h.persona = 'System Administrator';
    h.setBackendReachable(false);
    await h.runtime.handlers['session:signIn']({});
    const signedOut = await h.runtime.handlers['session:signOut']({ discardQueued: true });
    expect(signedOut.queuedForOthers).toEqual([]);
    const after = await h.runtime.handlers['outbox:list']({ limit: 10 });
    expect(after.entries.map((e) => e.state)).toEqual(['cancelled']);
    await h.runtime.close();
  });
});
