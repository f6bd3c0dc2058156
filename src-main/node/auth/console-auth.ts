/**
 * The console's sign-in (implements AuthPort): the backend's console loopback flow through the
 * user's own browser (RFC 8252), a bearer session token kept in the main process only (sealed by
 * the SecretStore), and sign-out that revokes the backend session.
 *
 * 1. A fresh verifier; its SHA-256 goes to the backend as console_challenge with our loopback address.
 * 2. The browser opens the provider page (`openExternal`), the user signs in, the provider sends the
 *    browser to our loopback listener with code and state.
 * 3. We redeem them at the backend's callback with the verifier header and get the session token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { CONSOLE_VERIFIER_HEADER } from '../../../src-shared/console/sign-in.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../../src-shared/domain/constants.ts';
import { UserSchema, type User } from '../../../src-shared/domain/schemas.ts';
import { IpcFailure } from '../ipc-failure.ts';
import type { AuthPort } from '../ports.ts';
import { startLoopbackListener } from './loopback-listener.ts';
import type { SecretStore } from './secret-store.ts';

export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const REQUEST_TIMEOUT_MS = 15_000;

const StoredSession = z.object({ token: z.string().min(20), user: UserSchema, expiresAt: z.string().nullable() });
type StoredSession = z.infer<typeof StoredSession>;

const LoginAnswer = z.object({ auth_url: z.string().url() });
const CallbackAnswer = z.object({ id: z.string(), session_token: z.string().min(20), expires_at: z.string().optional() });
const SessionAnswer = z.object({ user: UserSchema.nullable() });

export interface ConsoleAuthOptions {
  apiBaseUrl: string;
  /** Registered loopback redirect, e.g. CONSOLE_LOOPBACK_REDIRECT_URI. */
  redirectUri: string;
  /** Opens a URL in the user's browser (Electron: shell.openExternal; tests: an HTTP client). */
  openExternal: (url: string) => Promise<void>;
  secrets: SecretStore;
  fetch?: typeof fetch;
  signInTimeoutMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

export interface ConsoleAuth extends AuthPort {
  /** Reads the sealed session and asks the backend whether it still holds (offline: keeps it). */
  restore(): Promise<void>;
  signIn(): Promise<void>;
  /** Ends the backend session (when reachable) and forgets the token; true when the backend confirmed. */
  signOut(): Promise<boolean>;
  /** Who is (or was, when sign-in is needed again) signed in. */
  user(): User | null;
  needsSignIn(): boolean;
  /** Where the last sign-in attempt sent the browser, for hosts that print it. */
  lastSignInUrl(): string | null;
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

export function createConsoleAuth(options: ConsoleAuthOptions): ConsoleAuth {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const listeners = new Set<() => void>();
  let session: StoredSession | null = null;
  let signinNeeded = false;
  let pendingSignIn: Promise<void> | null = null;
  let lastUrl: string | null = null;

  const api = (path: string) => new URL(path, options.apiBaseUrl).toString();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const expired = (s: StoredSession) => s.expiresAt !== null && Date.parse(s.expiresAt) <= now();

  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    return doFetch(api(path), { ...init, redirect: 'error', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  }

  async function readJson<T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> {
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const detail = (body as { detail?: unknown } | null)?.detail;
      throw new IpcFailure('failed', `${what} failed (${response.status})${typeof detail === 'string' ? `: ${detail}` : ''}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new IpcFailure('failed', `${what}: the backend answered in an unexpected shape.`);
    return parsed.data;
  }

  /** Revokes a bearer session at the backend; false when the backend could not be reached. */
  async function endBackendSession(ending: StoredSession): Promise<boolean> {
    try {
      const response = await request(`/api/auth/roblox/logout/${encodeURIComponent(ending.user.id)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ending.token}` },
      });
      await response.body?.cancel();
      // 401: the session had ended already, which is what we wanted.
      return response.ok || response.status === 401;
    } catch {
      options.log?.('Signed out locally; the backend could not be reached to end the session.');
      return false;
    }
  }

  async function runSignIn(): Promise<void> {
    const verifier = base64url(randomBytes(32));
    const challenge = base64url(createHash('sha256').update(verifier).digest());
    const listener = await startLoopbackListener(options.redirectUri, options.signInTimeoutMs ?? SIGN_IN_TIMEOUT_MS, {
      onIgnored: (reason) => options.log?.(`Ignored a request to the sign-in address: ${reason}.`),
    });
    try {
      const query = new URLSearchParams({ client: 'console', redirect_uri: options.redirectUri, console_challenge: challenge });
      const login = await readJson(await request(`/api/auth/roblox/login?${query}`), LoginAnswer, 'Starting sign-in');
      const expectedState = new URL(login.auth_url).searchParams.get('state');
      if (!expectedState) throw new IpcFailure('failed', 'Starting sign-in: the backend gave no state to check the answer against.');
      // RFC 8252 §8.9: only the redirect that answers our own request counts; the listener ignores
      // any other (docs/console-security.md#the-sign-in-listener).
      listener.expectState(expectedState);
      lastUrl = login.auth_url;
      await options.openExternal(login.auth_url);

      const back = await listener.callback;
      try {
        const error = back.params.get('error');
        if (error) throw new IpcFailure('failed', `Sign-in was not completed: ${back.params.get('error_description') ?? error}`);
        const code = back.params.get('code');
        if (!code) throw new IpcFailure('failed', 'The sign-in answer carried no code.');
        const callback = await readJson(
          await request('/api/auth/roblox/callback', {
            method: 'POST',
            headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE, [CONSOLE_VERIFIER_HEADER]: verifier },
            body: JSON.stringify({ code, state: expectedState }),
          }),
          CallbackAnswer,
          'Finishing sign-in',
        );
        const user = await readJson(
          await request(`/api/auth/roblox/user/${encodeURIComponent(callback.id)}`, { headers: { authorization: `Bearer ${callback.session_token}` } }),
          UserSchema,
          'Reading your account',
        );
        const previous = session;
        session = { token: callback.session_token, user, expiresAt: callback.expires_at ?? null };
        signinNeeded = false;
        // Signing in again (or as someone else) ends the session this console held before.
        if (previous && previous.token !== session.token) void endBackendSession(previous);
        options.secrets.save(JSON.stringify(session));
        back.finish({ ok: true, message: `Signed in to the Petitions console as ${user.displayName}. You can close this tab.` });
      } catch (error) {
        back.finish({ ok: false, message: error instanceof Error ? error.message : 'Sign-in failed.' });
        throw error;
      }
    } finally {
      listener.close();
    }
    changed();
  }

  return {
    current() {
      if (!session || signinNeeded) return null;
      return { userId: session.user.id, token: session.token };
    },
    reportUnauthorized(token) {
      if (!session || session.token !== token || signinNeeded) return;
      signinNeeded = true;
      changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    user: () => session?.user ?? null,
    needsSignIn: () => session === null || signinNeeded,
    lastSignInUrl: () => lastUrl,

    async restore() {
      const raw = options.secrets.load();
      if (!raw) return;
      let parsed: StoredSession;
      try {
        parsed = StoredSession.parse(JSON.parse(raw));
      } catch {
        options.secrets.clear();
        return;
      }
      session = parsed;
      signinNeeded = expired(parsed);
      if (!signinNeeded) {
        try {
          const answer = await readJson(await request('/api/auth/session', { headers: { authorization: `Bearer ${parsed.token}` } }), SessionAnswer, 'Checking the session');
          if (answer.user?.id === parsed.user.id) session = { ...parsed, user: answer.user };
          else signinNeeded = true;
        } catch {
          // Offline: keep the session; sync will find out (401) when the backend is back.
        }
      }
      changed();
    },

    signIn() {
      pendingSignIn ??= runSignIn().finally(() => {
        pendingSignIn = null;
      });
      return pendingSignIn;
    },

    async signOut() {
      const ending = session;
      session = null;
      signinNeeded = false;
      options.secrets.clear();
      changed();
      return ending ? endBackendSession(ending) : true;
    },
  };
}
