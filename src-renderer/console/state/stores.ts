/**
 * The console's state, one zustand store per concern (a file each), all fed by the ConsoleApi (never
 * by fetch): the session, the outbox view, the data read through `data:read` (the petition queues and
 * the moderation queue), navigation, presence and toasts.
 * `createConsoleStores(api)` builds them; tests pass a ConsoleApi double.
 */
import type { ConsoleApi, ConsoleSession } from '../../../src-shared/console/ipc-contract.ts';
import { createDataStore } from './dataStore.ts';
import { createModerationStore } from './moderationStore.ts';
import { createNavStore, type Screen } from './navStore.ts';
import { createOutboxViewStore } from './outboxViewStore.ts';
import { createPresenceStore } from './presenceStore.ts';
import { createConsoleSessionStore } from './sessionStore.ts';
import { createToastStore } from './toastStore.ts';

export type ConsoleStores = ReturnType<typeof createConsoleStores>;

/** `initial` seeds the session (server-side renders in tests show a store's initial state). */
export function createConsoleStores(api: ConsoleApi, initial: { session?: ConsoleSession; screen?: Screen } = {}) {
  return {
    api,
    session: createConsoleSessionStore(api, initial.session ?? null),
    outbox: createOutboxViewStore(api),
    data: createDataStore(api),
    moderation: createModerationStore(api),
    nav: createNavStore(initial.screen),
    presence: createPresenceStore(api),
    toasts: createToastStore(),
  };
}
