/**
 * The workspace around the queue, one chunk requested as the workspace first renders (useWorkspaceFrame in
 * lazyScreens.ts): the navigation, the top bar's connection state and outbox badge, session notices, sign
 * out, toasts, a queue's filters, colleagues' notes on queue rows, the panels (outbox, palette, shortcuts; the
 * keys that open them are in the entry and only set the navigation store's state, so none is lost meanwhile),
 * and the background work a queue does not wait for (the moderation queue, colleagues' presence, the
 * queues' news, the member's last office). Kept off the initial download, which carries React, the
 * stores and the queue only (at most 77 KB gzip, docs/operations.md#javascript-weight).
 */
export { Navigation } from './components/Navigation.tsx';
export { ConnectionStatus, OutboxButton } from './components/TopBar.tsx';
export { SessionNotices } from './components/SessionNotices.tsx';
export { SignOutButton } from './components/SignOutButton.tsx';
export { Toasts } from './components/Toasts.tsx';
export { QueueFilterBar } from './components/QueueFilterBar.tsx';
