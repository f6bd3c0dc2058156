/** The few names the browser bridge (src-preload/browser-bridge.ts) and the console host (src-main/node/browser-host) agree on. */
export const BRIDGE_TOKEN_META = 'console-bridge-token';
export const BRIDGE_TOKEN_HEADER = 'x-console-bridge-token';
export const BRIDGE_SCRIPT_PATH = '/__console/bridge.js';
export const BRIDGE_INVOKE_PATH = '/__console/invoke';
export const BRIDGE_EVENTS_PATH = '/__console/events';
