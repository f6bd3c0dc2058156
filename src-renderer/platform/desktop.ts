/**
 * Desktop (staff console) implementation of the platform adapter. Everything privileged goes
 * through `window.consoleApi`, the preload's typed bridge (or the loopback bridge of
 * `npm run console:browser`, which exposes the very same object).
 */
import type { ConsoleApi } from '../../src-shared/console/ipc-contract.ts';
import type { Platform } from './types.ts';
import { isSafeReturnPath } from './return-path.ts';

declare global {
  interface Window {
    consoleApi?: ConsoleApi;
  }
}

const RETURN_TO_KEY = 'petitions.console.returnTo';

function consoleApi(): ConsoleApi {
  const api = window.consoleApi;
  if (!api) throw new Error('The console bridge is missing: this bundle runs only inside the staff console.');
  return api;
}

export const desktopPlatform: Platform = {
  kind: 'desktop',
  // The renderer never calls the backend itself: reads go through `data:read`, writes through the outbox.
  apiBaseUrl: '',
  get console() {
    return consoleApi();
  },
  openSignIn() {
    // The console signs in through the system browser and its loopback listener (main process).
    void consoleApi().invoke('session:signIn', {});
  },
  reload() {
    window.location.reload();
  },
  async copyText(text) {
    await navigator.clipboard.writeText(text);
  },
  async notify(title, body) {
    await consoleApi().invoke('platform:notify', { title: title.slice(0, 200), body: body.slice(0, 1000) });
  },
  absoluteUrl(path) {
    return new URL(path, window.location.origin).toString();
  },
  rememberReturnTo(path) {
    if (isSafeReturnPath(path)) window.sessionStorage.setItem(RETURN_TO_KEY, path);
    else window.sessionStorage.removeItem(RETURN_TO_KEY);
  },
  takeReturnTo() {
    const value = window.sessionStorage.getItem(RETURN_TO_KEY);
    window.sessionStorage.removeItem(RETURN_TO_KEY);
    return isSafeReturnPath(value) ? value : null;
  },
};

/** What `#platform` resolves to in the console build. */
export const platform: Platform = desktopPlatform;
