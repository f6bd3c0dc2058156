/**
 * The one contract between the console renderer and the console's main process. Every channel has
 * a zod request and response schema; the main side parses both on every call (whatever carries it:
 * Electron IPC in the installed console, the loopback bridge of `npm run console:browser`), and the
 * preload exposes exactly one method per channel and nothing else.
 */
import { z } from 'zod';
import { UserSchema } from '../domain/schemas.ts';
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

/** Only API reads may go through `data:read`: a path under /api/, no scheme, host or dot segments. */
export const ApiReadPath = z
  .string()
  .max(2000)
  .regex(/^\/api\/[A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*$/, 'A read is a path under /api/')
  .refine((path) => !/(^|\/)\.\.?(\/|$|\?)/.test(path), 'A read path has no dot segments');

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
  'platform:notify': {
    request: z.strictObject({ title: z.string().min(1).max(200), body: z.string().max(1000) }),
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
