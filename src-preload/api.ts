/**
 * The renderer's whole view of the console's main process: `invoke` for the contract's channels and
 * `on` for its events, nothing else. Pure, so the Electron preload (over ipcRenderer) and the
 * browser bridge of `npm run console:browser` (over fetch and server-sent events) build the same
 * object from their own transport.
 */
import type { ConsoleApi, IpcChannel, IpcEvent, IpcResult } from '../src-shared/console/ipc-contract.ts';
import { IPC_CHANNEL_NAMES, IPC_EVENT_NAMES } from '../src-shared/console/ipc-names.ts';

/** Sends one contract call; resolves with the main side's IpcResult (never a raw error). */
export type Invoke = (channel: IpcChannel, request: unknown) => Promise<IpcResult<unknown>>;
/** Listens for one contract event; returns the unsubscribe function. */
export type Subscribe = (event: IpcEvent, listener: (payload: unknown) => void) => () => void;

const CHANNELS = new Set<string>(IPC_CHANNEL_NAMES);
const EVENTS = new Set<string>(IPC_EVENT_NAMES);

export function buildConsoleApi(invoke: Invoke, subscribe: Subscribe): ConsoleApi {
  const invokeChecked = (channel: IpcChannel, request: unknown): Promise<IpcResult<unknown>> => {
    // The renderer is untrusted input to the bridge too: only contract channels go through.
    if (!CHANNELS.has(channel)) {
      return Promise.resolve({ ok: false, code: 'invalid_request', message: `Unknown channel ${String(channel)}` });
    }
    return invoke(channel, request);
  };
  const api: ConsoleApi = {
    invoke: invokeChecked as ConsoleApi['invoke'],
    on(event, listener) {
      if (!EVENTS.has(event)) throw new Error(`Unknown console event ${String(event)}`);
      if (typeof listener !== 'function') throw new TypeError('A console event listener must be a function');
      return subscribe(event, listener as (payload: unknown) => void);
    },
  };
  return Object.freeze(api);
}
