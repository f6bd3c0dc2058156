/** Browser implementation of the platform adapter. */
import { isSafeReturnPath } from './return-path.ts';
import type { Platform } from './types.ts';

export { isSafeReturnPath };

const RETURN_TO_KEY = 'petitions.returnTo';


function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage can be blocked by privacy settings
  }
}

export const webPlatform: Platform = {
  kind: 'web',
  apiBaseUrl: '',
  openSignIn(authUrl) {
    window.location.assign(authUrl);
  },
  reload() {
    window.location.reload();
  },
  async copyText(text) {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
    // Older browsers and insecure origins: fall back to a hidden textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('Copy failed');
  },
  async notify(title, body) {
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') new Notification(title, { body });
  },
  absoluteUrl(path) {
    return new URL(path, window.location.origin).toString();
  },
  rememberReturnTo(path) {
    const store = storage();
    if (!store) return;
    if (isSafeReturnPath(path)) store.setItem(RETURN_TO_KEY, path);
    else store.removeItem(RETURN_TO_KEY);
  },
  takeReturnTo() {
    const store = storage();
    if (!store) return null;
    const value = store.getItem(RETURN_TO_KEY);
    store.removeItem(RETURN_TO_KEY);
    return isSafeReturnPath(value) ? value : null;
  },
};

/** What `#platform` resolves to in the web build. */
export const platform: Platform = webPlatform;
