/**
 * The web app's service worker, served at /sw.js with scope / (vite.config.ts builds it into
 * dist-web). It does web push only (docs/notifications.md#web-push): no caching, no fetch handler,
 * so every page and API call goes to the network as without it.
 */
import { clickTarget, notificationFor, openTarget } from './push-handlers.ts';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const { title, options } = notificationFor(event.data ? event.data.text() : null);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openTarget(self.clients, clickTarget(event.notification.data, self.location.origin)));
});
