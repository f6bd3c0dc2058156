/**
 * The contract's channel and event names without its schemas, for the preload: a sandboxed preload
 * should stay small, and it only needs to know which names exist (the main side parses payloads).
 * The types below fail to compile when this list and ipc-contract.ts drift apart.
 */
import type { IpcChannel, IpcEvent } from './ipc-contract.ts';

export const IPC_CHANNEL_NAMES = [
  'session:get',
  'session:signIn',
  'session:signOut',
  'data:read',
  'outbox:enqueue',
  'outbox:list',
  'outbox:retry',
  'outbox:discard',
  'outbox:resubmit',
  'sync:now',
  'platform:notify',
  'presence:get',
  'presence:set',
  'platform:openExternal',
  'update:status',
  'update:restart',
] as const satisfies readonly IpcChannel[];

export const IPC_EVENT_NAMES = [
  'outbox:changed',
  'session:changed',
  'update:changed',
  'presence:changed',
  'platform:notification',
] as const satisfies readonly IpcEvent[];

type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : { missing: Exclude<All, Listed> };
export const CHANNEL_NAMES_COMPLETE: Missing<IpcChannel, (typeof IPC_CHANNEL_NAMES)[number]> = true;
export const EVENT_NAMES_COMPLETE: Missing<IpcEvent, (typeof IPC_EVENT_NAMES)[number]> = true;
