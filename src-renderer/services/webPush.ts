/**
 * Web push on this device (docs/notifications.md#web-push): the browser's side of the "Web push"
 * switch. Turning it on asks the browser's permission, registers the service worker (/sw.js, scope /),
 * subscribes with the server's VAPID key and registers the subscription as one of the member's
 * devices; turning it off removes that device and unsubscribes. The server decides everything else.
 */
import { SERVICE_WORKER_PATH, SERVICE_WORKER_SCOPE } from '../../src-shared/domain/push-constants.ts';
import type { PushSubscriptionRequest } from '../../src-shared/domain/push-schemas.ts';
import { apiCaller } from './apiCaller.ts';
import { apiDeletePushSubscription, apiGetPushConfig, apiListPushSubscriptions, apiSavePushSubscription } from '../../src-shared/api/member-calls.ts';

export type WebPushState =
  /** This browser has no service workers or no Push API (or the page is not a secure context). */
  | { kind: 'unsupported' }
  /** The site sends no web push. */
  | { kind: 'off-on-site' }
  /** The member blocked notifications for this site in the browser. */
  | { kind: 'blocked' }
  | { kind: 'ready'; subscribed: boolean; deviceId: number | null };

export class WebPushRefused extends Error {
  readonly state: WebPushState;

  constructor(state: WebPushState) {
    super(state.kind);
    this.state = state;
  }
}

function supported(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** base64url → bytes, as pushManager.subscribe wants the applicationServerKey. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

function sameKey(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options.applicationServerKey;
  if (!key) return false;
  const wanted = keyBytes(publicKey);
  const have = new Uint8Array(key);
  return have.length === wanted.length && have.every((byte, index) => byte === wanted[index]);
}

/** Where this device stands: whether the browser and the site can push, and whether this device is registered. */
export async function webPushState(): Promise<WebPushState> {
  if (!supported()) return { kind: 'unsupported' };
  const config = await apiGetPushConfig(apiCaller);
  if (!config.enabled || !config.publicKey) return { kind: 'off-on-site' };
  if (Notification.permission === 'denied') return { kind: 'blocked' };
  const subscription = await currentSubscription();
  if (!subscription) return { kind: 'ready', subscribed: false, deviceId: null };
  const device = (await apiListPushSubscriptions(apiCaller)).items.find((item) => item.endpoint === subscription.endpoint);
  return { kind: 'ready', subscribed: Boolean(device), deviceId: device?.id ?? null };
}

/** Turns web push on for this device; refuses with the state that prevents it. */
export async function subscribeThisDevice(): Promise<WebPushState> {
  if (!supported()) throw new WebPushRefused({ kind: 'unsupported' });
  const config = await apiGetPushConfig(apiCaller);
  if (!config.enabled || !config.publicKey) throw new WebPushRefused({ kind: 'off-on-site' });
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new WebPushRefused({ kind: 'blocked' });
  await navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: SERVICE_WORKER_SCOPE });
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made for another key (the site's keys changed) cannot receive our messages.
  if (subscription && !sameKey(subscription, config.publicKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(config.publicKey) });
  const device = await apiSavePushSubscription(apiCaller, subscription.toJSON() as PushSubscriptionRequest);
  return { kind: 'ready', subscribed: true, deviceId: device.id };
}

/** Turns web push off for this device: the server forgets it, and the browser drops the subscription. */
export async function unsubscribeThisDevice(deviceId: number | null): Promise<WebPushState> {
  if (deviceId !== null) await apiDeletePushSubscription(apiCaller, deviceId);
  await (await currentSubscription())?.unsubscribe();
  return { kind: 'ready', subscribed: false, deviceId: null };
}
