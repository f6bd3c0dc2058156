/**
 * The seams between the console's main-process services. They run under plain Node (tests,
 * `npm run console:browser`) and inside Electron alike; Electron-specific parts plug in here.
 *
 * - The sign-in service (`src-main/node/auth`) implements `AuthPort`.
 * - The console core (`src-main/node/console-core.ts`: local database, read cache, outbox, sync)
 *   implements `ConsoleCore` and consumes `AuthPort` and `EventSink`.
 * - A runtime composes both with the session, platform and update handlers into `IpcHandlers`, and a
 *   transport (Electron IPC, or the loopback bridge of console:browser) calls them.
 */
import type { IpcEvent, IpcEventPayload, IpcHandlers } from '../../src-shared/console/ipc-contract.ts';

export interface AuthPort {
  /** The signed-in staff member and the backend bearer token, or null when signed out. */
  current(): { userId: string; token: string } | null;
  /** Sync saw a 401 with this token: the session needs sign-in again (sync pauses until then). */
  reportUnauthorized(token: string): void;
  /** Sign-in, sign-out and session changes; sync resumes that user's waiting rows on sign-in. */
  onChange(listener: () => void): () => void;
}

/** Pushes a contract event to the renderer (whatever the transport). */
export interface EventSink {
  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void;
}

export type ConsoleCoreChannel =
  | 'data:read'
  | 'outbox:enqueue'
  | 'outbox:list'
  | 'outbox:retry'
  | 'outbox:discard'
  | 'outbox:resubmit'
  | 'sync:now';

export interface ConsoleCore {
  handlers: Pick<IpcHandlers, ConsoleCoreChannel>;
  /** Starts the sync loop; rows left in `sending` by a crash are resent with their own key. */
  start(): void;
  /** A hint from the platform (online/offline events, resume from sleep): try now rather than at the next backoff. */
  setOnline(online: boolean): void;
  /** What the core last learnt of the backend, for the session's connection state. */
  connectivity(): { online: boolean; lastContactAt: string | null };
  /** Queued rows of other staff members than `userId` (never sent with this user's token). */
  queuedForOthers(userId: string | null): { actorUserId: string; count: number }[];
  /** Discards the not-yet-applied rows of `userId` (sign-out with "discard queued"). */
  discardQueuedFor(userId: string): number;
  close(): Promise<void>;
}

export interface ConsoleCoreOptions {
  /** Folder of the console's SQLite file (CONSOLE_DATA_DIR). */
  dataDir: string;
  /** The backend, e.g. http://localhost:3000 (PETITIONS_API_URL). */
  apiBaseUrl: string;
  auth: AuthPort;
  events: EventSink;
  fetch?: typeof fetch;
  now?: () => number;
  random?: () => number;
}
