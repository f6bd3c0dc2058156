/**
 * Console-core test support: staff signed in through the backend's real console flow (the local
 * OpenID provider, loopback redirect, verifier), an AuthPort the test drives, and an event sink that
 * records what the renderer would be told.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { consoleChallengeFor, randomConsoleVerifier } from '../../src-server/auth/sign-in.ts';
import { DEV_CONSOLE_REDIRECT_URI } from '../../src-server/dev/dev-sign-in.ts';
import type { IpcEvent, IpcEventPayload } from '../../src-shared/console/ipc-contract.ts';
import type { AuthPort, EventSink } from '../../src-main/node/ports.ts';
import { appFetch, authorizeAs, CookieJar } from '../server-auth/browser.ts';
import type { Stack } from '../support/stack.ts';

export interface ConsoleSession {
  userId: string;
  token: string;
}

/** Signs a persona in as the desktop console does and returns its bearer session. */
export async function consoleSignIn(stack: Pick<Stack, 'baseUrl'>, personaLabel: string): Promise<ConsoleSession> {
  const verifier = randomConsoleVerifier();
  const query = `?client=console&redirect_uri=${encodeURIComponent(DEV_CONSOLE_REDIRECT_URI)}&console_challenge=${consoleChallengeFor(verifier)}`;
  const { callbackUrl } = await authorizeAs(stack as Stack, personaLabel, new CookieJar(), query);
  const response = await appFetch(stack, null, '/api/auth/roblox/callback', {
    method: 'POST',
    body: { code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') },
    headers: { 'x-petitions-console-verifier': verifier },
  });
  if (response.status !== 200) throw new Error(`console callback answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { userId: response.body.id as string, token: response.body.session_token as string };
}

/** An AuthPort whose session the test sets; a reported 401 signs the user out, as the shell does. */
export class TestAuth implements AuthPort {
  session: ConsoleSession | null;
  readonly unauthorized: string[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(session: ConsoleSession | null = null) {
    this.session = session;
  }

  current() {
    return this.session;
  }

  reportUnauthorized(token: string): void {
    this.unauthorized.push(token);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  set(session: ConsoleSession | null): void {
    this.session = session;
    for (const listener of this.listeners) listener();
  }
}

export class RecordingEvents implements EventSink {
  readonly events: { event: IpcEvent; payload: unknown }[] = [];
  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
    this.events.push({ event, payload });
  }
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
