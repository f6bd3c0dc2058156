/**
 * The one contract between the console renderer and the console's main process. Every channel has
 * a zod request and response schema; the main side parses both on every call (whatever carries it:
 * Electron IPC in the installed console, the loopback bridge of `npm run console:browser`), and the
 * preload exposes two methods and nothing else: `invoke` for the channels below and `on` for the
 * events (the `ConsoleApi` at the end of this file, built by src-preload/api.ts).
 */
import { z } from 'zod';
import { UserSchema } from '../domain/schemas.ts';
import { PresenceActivitySchema, PresenceEntrySchema, QueueSummarySchema } from '../domain/team-schemas.ts';
import { ApiReadPath } from './api-read-path.ts';
import { OutboxEntrySchema, OutboxStateSchema, OutboxSummarySchema } from './outbox.ts';
import { StaffActionSchema } from './staff-actions.ts';

export const ConnectionStateSchema = z.enum(['online', 'offline', 'signin_needed']);
export type ConnectionState = z.infer<typeof ConnectionStateSchema>;

export const ConsoleSessionSchema = z.object({
  /** The signed-in staff member as the backend last described them; null when signed out. */
  user: UserSchema.nullable(),
  connection: ConnectionStateSchema,
  /** When the backend last answered, for "as of 14:02, offline". */
  lastContactAt: z.string().nullable(),
  /** Queued actions that belong to another staff member: never sent with this user's token. */
  queuedForOthers: z.array(z.object({ actorUserId: z.string(), count: z.number().int() })),
});
export type ConsoleSession = z.infer<typeof ConsoleSessionSchema>;

/** A GET of the backend API, answered live when it can be and from the local cache when not. */
export const CachedReadSchema = z.object({
  data: z.unknown(),
  fetchedAt: z.string(),
  fromCache: z.boolean(),
});
export type CachedRead = z.infer<typeof CachedReadSchema>;

/**
 * What the console knows of its colleagues (docs/console-team.md#presence): presence and claims from
 * the staff event stream, and the latest queue summary. `connected` false: the console cannot see
 * them now (offline, signed out, or the stream is down) and says so.
 */
export const PresenceViewSchema = z.object({
  connected: z.boolean(),
  /** Not connected because the backend could not be reached at all (offline), not because it refused or restarted. */
  unreachable: z.boolean(),
  entries: z.array(PresenceEntrySchema),
  queues: QueueSummarySchema.nullable(),
});
export type PresenceView = z.infer<typeof PresenceViewSchema>;

const NotificationSchema = z.strictObject({ title: z.string().min(1).max(200), body: z.string().max(1000) });

const Empty = z.strictObject({});
const Ok = z.object({ ok: z.literal(true) });
const EntryId = z.strictObject({ id: z.string().min(1).max(64) });

export const UpdateStatusSchema = z.object({
  state: z.enum(['idle', 'checking', 'available', 'downloading', 'ready', 'error', 'unsupported']),
  version: z.string().nullable(),
  message: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

export const IPC_CHANNELS = {
  'session:get': { request: Empty, response: ConsoleSessionSchema },
  'session:signIn': { request: Empty, response: ConsoleSessionSchema },
  'session:signOut': {
    request: z.strictObject({ discardQueued: z.boolean().default(false) }),
    response: ConsoleSessionSchema,
  },
  /** Only canonical API paths: docs/console-security.md#what-dataread-may-read */
  'data:read': { request: z.strictObject({ path: ApiReadPath }), response: CachedReadSchema },
  'outbox:enqueue': {
    request: z.strictObject({
      actions: z.array(StaffActionSchema).min(1).max(500),
      /** Several actions queued together (a bulk status override) share a batch id. */
      batch: z.boolean().default(false),
    }),
    response: z.object({ entries: z.array(OutboxEntrySchema) }),
  },
  'outbox:list': {
    request: z.strictObject({
      states: z.array(OutboxStateSchema).optional(),
      batchId: z.string().max(64).optional(),
      limit: z.number().int().min(1).max(10_000).default(500),
    }),
    response: z.object({ entries: z.array(OutboxEntrySchema), summary: OutboxSummarySchema }),
  },
  'outbox:retry': { request: EntryId, response: OutboxEntrySchema },
  'outbox:discard': { request: EntryId, response: OutboxEntrySchema },
  /** Resolves a conflict with a new action (new key, based on the server's current version). */
  'outbox:resubmit': {
    request: z.strictObject({ id: z.string().min(1).max(64), action: StaffActionSchema }),
    response: z.object({ entries: z.array(OutboxEntrySchema) }),
  },
  'sync:now': { request: Empty, response: OutboxSummarySchema },
  'platform:notify': { request: NotificationSchema, response: Ok },
  'presence:get': { request: Empty, response: PresenceViewSchema },
  /** Where this console is: a petition and what it does there, or null (in the queues, or gone). */
  'presence:set': {
    request: z.strictObject({
      petitionId: z.number().int().positive().nullable(),
      activity: PresenceActivitySchema.default('viewing'),
      /** Sent while typing in the form: renews the claim. */
      renewClaim: z.boolean().default(false),
    }),
    response: Ok,
  },
  'platform:openExternal': { request: z.strictObject({ url: z.string().url().max(2000) }), response: Ok },
  'update:status': { request: Empty, response: UpdateStatusSchema },
  'update:restart': { request: Empty, response: Ok },
} as const;

export type IpcChannel = keyof typeof IPC_CHANNELS;
export type IpcRequest<C extends IpcChannel> = z.input<(typeof IPC_CHANNELS)[C]['request']>;
export type IpcParsedRequest<C extends IpcChannel> = z.output<(typeof IPC_CHANNELS)[C]['request']>;
export type IpcResponse<C extends IpcChannel> = z.output<(typeof IPC_CHANNELS)[C]['response']>;

/** Main → renderer notifications. Payloads are parsed by the sender. */
export const IPC_EVENTS = {
  'outbox:changed': OutboxSummarySchema,
  'session:changed': ConsoleSessionSchema,
  'update:changed': UpdateStatusSchema,
  'presence:changed': PresenceViewSchema,
  /** console:browser only: a desktop notification for the page to show (the host has no notification centre of its own). */
  'platform:notification': NotificationSchema,
} as const;
export type IpcEvent = keyof typeof IPC_EVENTS;
export type IpcEventPayload<E extends IpcEvent> = z.output<(typeof IPC_EVENTS)[E]>;

/**
 * How a call comes back over any transport: expected failures are values, not thrown errors
 * (Electron passes only an error's message across IPC).
 */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; code: IpcErrorCode; message: string };
export type IpcErrorCode = 'invalid_request' | 'forbidden_sender' | 'not_signed_in' | 'not_found' | 'failed';

/** The API the preload exposes to the renderer as `window.consoleApi`: the contract and nothing else. */
export interface ConsoleApi {
  invoke<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcResponse<C>>>;
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
}

/** The handlers behind the contract, one per channel; transports call them after checking the sender. */
export type IpcHandlers = {
  [C in IpcChannel]: (request: IpcParsedRequest<C>) => Promise<IpcResponse<C>>;
};
