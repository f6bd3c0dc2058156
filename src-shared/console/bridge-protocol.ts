/**
 * The few names the browser bridge (src-preload/browser-bridge.ts) and the console host
 * (src-main/node/browser-host) agree on. How the page gets its token and what the host checks:
 * docs/console-security.md#the-consolebrowser-bridge
 * No zod here: the bridge script is a small classic script; the host parses with zod on its side.
 */

/** The fragment parameter of the address the host opens and prints: a one-time launch code. */
export const BRIDGE_LAUNCH_PARAM = 'console-launch';
/** Where the page keeps the bridge token: this tab only, gone when the tab closes. */
export const BRIDGE_TOKEN_STORAGE_KEY = 'petitions.console.bridgeToken';
export const BRIDGE_TOKEN_HEADER = 'x-console-bridge-token';
export const BRIDGE_SCRIPT_PATH = '/__console/bridge.js';
/** POST: a launch code in, the bridge token out (once per code). */
export const BRIDGE_LAUNCH_PATH = '/__console/launch';
export const BRIDGE_INVOKE_PATH = '/__console/invoke';
/** POST (so the browser sends Origin): the contract's events as server-sent events. */
export const BRIDGE_EVENTS_PATH = '/__console/events';

/** Launch codes and the bridge token: 32 random bytes, base64url. */
export const BRIDGE_SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the page says (and the host answers with 403) when it holds no valid bridge token. */
export const BRIDGE_REFUSED_MESSAGE =
  'This page cannot use the console: open it from the address `npm run console:browser` printed in its terminal ' +
  '(each address opens one tab; the terminal then prints a new one). A page the console did not open, or another ' +
  'program, is refused.';
