/**
 * The preload's API for `npm run console:browser`: the same `buildConsoleApi` object, carried over
 * fetch (calls) and server-sent events (events) to the console host on the loopback interface.
 * The host puts a per-run token in the page (`<meta name="console-bridge-token">`); every call
 * carries it, so no other page or program on the machine can use the bridge.
 * Built as a classic script (out/preload/browser-bridge.cjs) that runs before the renderer.
 */
import type { IpcEvent, IpcResult } from '../src-shared/console/ipc-contract.ts';
import { BRIDGE_EVENTS_PATH, BRIDGE_INVOKE_PATH, BRIDGE_TOKEN_HEADER, BRIDGE_TOKEN_META } from '../src-shared/console/bridge-protocol.ts';
import { buildConsoleApi } from './api.ts';

const token = document.querySelector<HTMLMetaElement>(`meta[name="${BRIDGE_TOKEN_META}"]`)?.content ?? '';

const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
let source: EventSource | null = null;

function ensureEventSource(): void {
  if (source) return;
  source = new EventSource(`${BRIDGE_EVENTS_PATH}?token=${encodeURIComponent(token)}`);
  source.onmessage = (message) => {
    let parsed: { event: IpcEvent; payload: unknown };
    try {
      parsed = JSON.parse(message.data as string) as { event: IpcEvent; payload: unknown };
    } catch {
      return;
    }
    for (const listener of listeners.get(parsed.event) ?? []) listener(parsed.payload);
  };
}

const api = buildConsoleApi(
  async (channel, request) => {
    try {
      const response = await fetch(BRIDGE_INVOKE_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: token },
        body: JSON.stringify({ channel, request }),
      });
      return (await response.json()) as IpcResult<unknown>;
    } catch (error) {
      return { ok: false, code: 'failed', message: `The console host did not answer: ${String(error)}` };
    }
  },
  (event, listener) => {
    ensureEventSource();
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  },
);

Object.defineProperty(window, 'consoleApi', { value: api, writable: false, configurable: false });
