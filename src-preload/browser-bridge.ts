/**
 * The preload's API for `npm run console:browser`: the same `buildConsoleApi` object, carried over
 * fetch (calls) and a server-sent event stream (events) to the console host on the loopback interface.
 * Built as a classic script (out/preload/browser-bridge.cjs) that runs before the renderer.
 *
 * The page gets its bridge token once (docs/console-security.md#the-consolebrowser-bridge): the
 * address the host opened or printed carries a one-time launch code in its fragment; this script
 * takes it out of the address bar before anything renders, trades it for the token and keeps the
 * token in this tab's sessionStorage, so a reload or a link within the tab keeps working while
 * another tab needs an address of its own. Every request is a POST, so the browser sends our Origin.
 */
import type { IpcEvent, IpcResult } from '../src-shared/console/ipc-contract.ts';
import {
  BRIDGE_EVENTS_PATH,
  BRIDGE_INVOKE_PATH,
  BRIDGE_LAUNCH_PARAM,
  BRIDGE_LAUNCH_PATH,
  BRIDGE_REFUSED_MESSAGE,
  BRIDGE_SECRET_PATTERN,
  BRIDGE_TOKEN_HEADER,
  BRIDGE_TOKEN_STORAGE_KEY,
} from '../src-shared/console/bridge-protocol.ts';
import { exponentialCeilingMs } from '../src-shared/rules/retry.ts';
import { buildConsoleApi } from './api.ts';

const RECONNECT_BASE_MS = 1_000;
const RECONNECT_CAP_MS = 30_000;

/** The launch code from the fragment, removed from the address bar and this history entry. */
function takeLaunchCode(): string | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const code = fragment.get(BRIDGE_LAUNCH_PARAM);
  if (code === null) return null;
  fragment.delete(BRIDGE_LAUNCH_PARAM);
  const rest = fragment.toString();
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`);
  return code;
}

async function obtainToken(code: string | null): Promise<string | null> {
  if (code !== null) {
    try {
      const response = await fetch(BRIDGE_LAUNCH_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ launch: code }),
      });
      const answer = (await response.json().catch(() => null)) as { token?: unknown } | null;
      if (response.ok && typeof answer?.token === 'string' && BRIDGE_SECRET_PATTERN.test(answer.token)) {
        window.sessionStorage.setItem(BRIDGE_TOKEN_STORAGE_KEY, answer.token);
        return answer.token;
      }
    } catch {
      // The host did not answer: this tab may still hold a token from before.
    }
  }
  // A reload, a link within this tab, or a spent address opened again in the tab that spent it.
  return window.sessionStorage.getItem(BRIDGE_TOKEN_STORAGE_KEY);
}

// Synchronously, before the renderer's router reads the address.
const token = obtainToken(takeLaunchCode());
const refused: IpcResult<never> = { ok: false, code: 'forbidden_sender', message: BRIDGE_REFUSED_MESSAGE };

const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
let streaming = false;

/** One event block of the stream (our host writes `data: {"event", "payload"}` lines and comments). */
function deliver(block: string): void {
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!data) return;
  let parsed: { event: IpcEvent; payload: unknown };
  try {
    parsed = JSON.parse(data) as { event: IpcEvent; payload: unknown };
  } catch {
    return;
  }
  for (const listener of listeners.get(parsed.event) ?? []) listener(parsed.payload);
}

/** Reads the host's event stream, reconnecting after a drop, until the host refuses this tab. */
async function streamEvents(): Promise<void> {
  let failures = 0;
  for (;;) {
    const current = await token;
    if (current === null) return;
    try {
      const response = await fetch(BRIDGE_EVENTS_PATH, { method: 'POST', headers: { [BRIDGE_TOKEN_HEADER]: current, accept: 'text/event-stream' } });
      // Another run's token (the host restarted): no retry will help; calls say why.
      if (response.status === 403) return;
      if (response.ok && response.body) {
        failures = 0;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r/g, '');
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            deliver(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      }
    } catch {
      // The host went away for a moment: try again below.
    }
    failures += 1;
    const delay = exponentialCeilingMs(failures, RECONNECT_BASE_MS, RECONNECT_CAP_MS) * (0.5 + Math.random() / 2);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

const api = buildConsoleApi(
  async (channel, request) => {
    const current = await token;
    if (current === null) return refused;
    try {
      const response = await fetch(BRIDGE_INVOKE_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: current },
        body: JSON.stringify({ channel, request }),
      });
      return (await response.json()) as IpcResult<unknown>;
    } catch (error) {
      return { ok: false, code: 'failed', message: `The console host did not answer: ${String(error)}` };
    }
  },
  (event, listener) => {
    if (!streaming) {
      streaming = true;
      void streamEvents();
    }
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  },
);

Object.defineProperty(window, 'consoleApi', { value: api, writable: false, configurable: false });

/**
 * Desktop notifications of console:browser: the host has no notification centre, so this page shows
 * the browser's own (docs/console-team.md#desktop-notifications). A browser asks for permission only
 * after a user gesture: the first click or key asks once.
 */
function askForNotifications(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}
window.addEventListener('click', askForNotifications, { once: true, capture: true });
window.addEventListener('keydown', askForNotifications, { once: true, capture: true });
api.on('platform:notification', (payload) => {
  const { title, body } = payload;
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted') new Notification(title, { body });
});
