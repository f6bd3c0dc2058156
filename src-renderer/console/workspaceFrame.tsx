/**
 * The workspace around the queue, one chunk requested as the workspace first renders (useWorkspaceFrame in
 * lazyScreens.ts), with everything it imports that the entry does not (electron.vite.config.ts): the navigation,
 * the top bar's connection state and outbox badge, session notices, sign out, toasts and a queue's filters. The
 * queue renders without waiting for it; with the entry it is the JavaScript up to an interactive queue, at most
 * 80 KB gzip (docs/operations.md#javascript-weight). The background work, colleagues' notes on queue rows and the
 * panels are not here: they come after the queue is interactive (workspaceBackground.tsx).
 */
export { Navigation } from './components/Navigation.tsx';
export { ConnectionStatus, OutboxButton } from './components/TopBar.tsx';
export { SessionNotices } from './components/SessionNotices.tsx';
export { SignOutButton } from './components/SignOutButton.tsx';
export { Toasts } from './components/Toasts.tsx';
export { QueueFilterBar } from './components/QueueFilterBar.tsx';
