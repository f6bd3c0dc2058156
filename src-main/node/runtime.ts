/**
 * The console's main-process services, composed: sign-in (AuthPort), the console core (cache,
 * outbox, sync), the platform and update handlers, behind the contract's IpcHandlers. Plain Node:
 * the Electron main process and `npm run console:browser` build the same runtime and differ only
 * in their ports (secret store, browser opener, notifications, updater) and transport.
 */
import type { ConsoleSession, IpcHandlers, UpdateStatus } from '../../src-shared/console/ipc-contract.ts';
import { createConsoleAuth, type ConsoleAuth } from './auth/console-auth.ts';
import type { SecretStore } from './auth/secret-store.ts';
import { IpcFailure } from './ipc-failure.ts';
import type { ConsoleCore, ConsoleCoreOptions, EventSink } from './ports.ts';
import { createPresenceLink, type PresenceLink } from './presence/presence-link.ts';
import { externalHostsFor, isAllowedExternalUrl } from './security/navigation.ts';
import { createUpdateController, type UpdateController } from './updates/update-controller.ts';
import type { UpdaterSignal } from './updates/update-policy.ts';

export interface ConsoleRuntimeOptions {
  dataDir: string;
  apiBaseUrl: string;
  /** The registered loopback redirect for sign-in. */
  redirectUri: string;
  secrets: SecretStore;
  /** Opens a URL in the user's browser (sign-in, allow-listed external links). */
  openExternal: (url: string) => Promise<void>;
  /** A desktop notification (Electron's Notification; the browser host forwards it to the page). */
  notify: (title: string, body: string) => Promise<void> | void;
  updates: { initial: UpdaterSignal; quitAndInstall: () => void };
  createCore: (options: ConsoleCoreOptions) => ConsoleCore;
  /** The transport's way to push events to the renderer. */
  events: EventSink;
  fetch?: typeof fetch;
  signInTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface ConsoleRuntime {
  handlers: IpcHandlers;
  auth: ConsoleAuth;
  core: ConsoleCore;
  /** Presence and claims, and the staff event stream (docs/console-team.md#presence). */
  presence: PresenceLink;
  updates: UpdateController;
  session(): ConsoleSession;
  /** Restores the sealed session, then starts sync. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createConsoleRuntime(options: ConsoleRuntimeOptions): ConsoleRuntime {
  const auth = createConsoleAuth({
    apiBaseUrl: options.apiBaseUrl,
    redirectUri: options.redirectUri,
    openExternal: options.openExternal,
    secrets: options.secrets,
    fetch: options.fetch,
    signInTimeoutMs: options.signInTimeoutMs,
    log: options.log,
  });

  let lastOnline: boolean | null = null;
  // Forward events, and watch the outbox summary: the updater must know when sync is busy, and the
  // session's connection state follows what the core learnt of the backend.
  const events: EventSink = {
    emit(event, payload) {
      options.events.emit(event, payload);
      if (event === 'outbox:changed') {
        updates.setSyncing((payload as { sending: number }).sending > 0);
        const online = core.connectivity().online;
        if (online !== lastOnline) {
          lastOnline = online;
          options.events.emit('session:changed', session());
        }
      }
    },
  };

  const updates: UpdateController = createUpdateController({
    initial: options.updates.initial,
    quitAndInstall: options.updates.quitAndInstall,
    onStatus: (status: UpdateStatus) => options.events.emit('update:changed', status),
  });

  const core = options.createCore({
    dataDir: options.dataDir,
    apiBaseUrl: options.apiBaseUrl,
    auth,
    events,
    fetch: options.fetch,
  });

  const presence = createPresenceLink({
    apiBaseUrl: options.apiBaseUrl,
    auth,
    events: options.events,
    fetch: options.fetch,
    log: options.log,
    readCached: async (path) => (await core.handlers['data:read']({ path })).data,
  });

  function session(): ConsoleSession {
    const user = auth.user();
    const connectivity = core.connectivity();
    return {
      user,
      connection: auth.needsSignIn() ? 'signin_needed' : connectivity.online ? 'online' : 'offline',
      lastContactAt: connectivity.lastContactAt,
      queuedForOthers: core.queuedForOthers(user?.id ?? null),
    };
  }

  const unsubscribe = auth.onChange(() => options.events.emit('session:changed', session()));
  const externalHosts = externalHostsFor(options.apiBaseUrl);

  const handlers: IpcHandlers = {
    ...core.handlers,
    'session:get': async () => session(),
    'session:signIn': async () => {
      await auth.signIn();
      return session();
    },
    'session:signOut': async ({ discardQueued }) => {
      const user = auth.user();
      if (discardQueued && user) core.discardQueuedFor(user.id);
      // While the token still works: colleagues see this console leave at once.
      await presence.leave();
      await auth.signOut();
      return session();
    },
    'platform:notify': async ({ title, body }) => {
      await options.notify(title, body);
      return { ok: true };
    },
    'platform:openExternal': async ({ url }) => {
      if (!isAllowedExternalUrl(url, externalHosts)) {
        throw new IpcFailure('invalid_request', 'The console opens only https links to the petitions site and Roblox.');
      }
      await options.openExternal(url);
      return { ok: true };
    },
    'presence:get': async () => presence.view(),
    'presence:set': async (spot) => {
      await presence.set(spot);
      return { ok: true };
    },
    'update:status': async () => updates.status(),
    'update:restart': () => updates.restart(),
  };

  return {
    handlers,
    auth,
    core,
    presence,
    updates,
    session,
    async start() {
      await auth.restore();
      core.start();
      presence.start();
    },
    async close() {
      unsubscribe();
      // Best effort and brief: an unreachable backend lets the presence lapse by itself within a minute.
      await Promise.race([presence.leave(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      presence.close();
      await core.close();
    },
  };
}
