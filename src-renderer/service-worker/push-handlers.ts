/**
 * What the service worker does with web push (docs/notifications.md#web-push), as plain functions
 * the worker's entry (sw.ts) wires to its events: a push message becomes one notification per event
 * (src-shared/rules/push.ts), and a click on it opens the petition, in a tab of this site already
 * showing it if there is one.
 */
import { PushPayloadSchema, type PushPayload } from '../../src-shared/domain/push-schemas.ts';
import { pushNotificationContent } from '../../src-shared/rules/push.ts';

/** Shown when a message cannot be read (a newer format, a damaged one): the Push API wants a notification for every push. */
export const FALLBACK_NOTIFICATION = { title: 'Petitions', body: 'There is news about a petition you follow.', url: '/notifications' } as const;

export interface NotificationToShow {
  title: string;
  options: { body: string; tag: string; data: { url: string }; icon?: string };
}

/** The notification for a push message's text; the fallback when it is not a payload this version reads. */
export function notificationFor(text: string | null): NotificationToShow {
  let payload: PushPayload | null;
  try {
    const parsed = PushPayloadSchema.safeParse(JSON.parse(text ?? ''));
    payload = parsed.success ? parsed.data : null;
  } catch {
    payload = null;
  }
  if (!payload) {
    return { title: FALLBACK_NOTIFICATION.title, options: { body: FALLBACK_NOTIFICATION.body, tag: 'petitions-news', data: { url: FALLBACK_NOTIFICATION.url } } };
  }
  const content = pushNotificationContent(payload);
  return { title: content.title, options: { body: content.body, tag: content.tag, data: { url: payload.url } } };
}

/** The address a click opens: a path of this site only (never elsewhere, whatever the data says). */
export function clickTarget(data: unknown, origin: string): string {
  const url = typeof data === 'object' && data !== null && 'url' in data ? (data as { url: unknown }).url : null;
  if (typeof url === 'string' && url.startsWith('/') && !url.startsWith('//')) {
    const resolved = new URL(url, origin);
    if (resolved.origin === origin) return resolved.href;
  }
  return new URL(FALLBACK_NOTIFICATION.url, origin).href;
}

export interface WindowLike {
  url: string;
  focus(): Promise<unknown>;
}
export interface ClientsLike {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowLike[]>;
  openWindow(url: string): Promise<unknown>;
}

/** Focuses a tab already on the target, or opens one. */
export async function openTarget(clients: ClientsLike, target: string): Promise<void> {
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  if (open) await open.focus();
  else await clients.openWindow(target);
}
