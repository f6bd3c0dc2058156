/**
 * The console's screens that an interactive queue does not need, each its own chunk: the entry carries the
 * workspace's outline, the queue and the stores only. The frame around the queue (navigation, top bar state,
 * filters, toasts) is one chunk of its own (workspaceFrame.tsx), requested as the workspace first renders;
 * together at most 80 KB gzip, React included (guarded by tests/console-shell/console-build.test.ts, printed by
 * `npm run perf:console`; docs/operations.md#javascript-weight). The background work, colleagues' notes and the
 * panels are another (workspaceBackground.tsx), requested only once the first queue is interactive.
 *
 * `startAfterFirstScreen` fetches the petition screen, the panels and the background once a queue is interactive. A
 * screen whose code is already there renders at once, without a Suspense pass: `r` or Ctrl+K must
 * put the cursor in the form or the palette before the next key arrives, or that key would be lost
 * (or taken for a shortcut).
 */
import { createElement, lazy, useState, useSyncExternalStore } from 'react';
import type { ComponentType } from 'react';
import type * as WorkspaceBackgroundModule from './workspaceBackground.tsx';
import type * as WorkspaceFrameModule from './workspaceFrame.tsx';

// Any props: each screen's own props type is checked where it is rendered, through `typeof`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;

interface Preloadable<C extends AnyComponent> {
  Component: C;
  preload(): Promise<unknown>;
}

function preloadable<M, C extends AnyComponent>(load: () => Promise<M>, pick: (module: M) => C): Preloadable<C> {
  let loaded: C | null = null;
  let loading: Promise<C> | null = null;
  const loadOnce = () => {
    loading ??= load().then((module) => (loaded = pick(module)));
    return loading;
  };
  const Lazy = lazy(() => loadOnce().then((component) => ({ default: component })));
  function Screen(props: object) {
    // Chosen once per mounted screen, so it never switches component (and state) under the user.
    const [ready] = useState<AnyComponent | null>(() => loaded);
    return createElement<object>(ready ?? (Lazy as AnyComponent), props);
  }
  return { Component: Screen as unknown as C, preload: loadOnce };
}

const petition = preloadable(() => import('./screens/PetitionScreen.tsx'), (m) => m.PetitionScreen);
const outbox = preloadable(() => import('./screens/OutboxPanel.tsx'), (m) => m.OutboxPanel);
const palette = preloadable(() => import('./screens/CommandPalette.tsx'), (m) => m.CommandPalette);
const shortcuts = preloadable(() => import('./screens/ShortcutSheet.tsx'), (m) => m.ShortcutSheet);
// Administrator screens: ministers never download them.
const bulk = preloadable(() => import('./screens/BulkStatusScreen.tsx'), (m) => m.BulkStatusScreen);
const admin = preloadable(() => import('./screens/AdminScreen.tsx'), (m) => m.AdminScreen);
// Moderation: only rank 7 and up and the administrator open it.
const moderationQueue = preloadable(() => import('./screens/ModerationQueueScreen.tsx'), (m) => m.ModerationQueueScreen);
const moderationCase = preloadable(() => import('./screens/ModerationCaseScreen.tsx'), (m) => m.ModerationCaseScreen);

// "Lazy…": the screens' own modules export the components under their plain names.
export const LazyPetitionScreen = petition.Component;
export const LazyOutboxPanel = outbox.Component;
export const LazyCommandPalette = palette.Component;
export const LazyShortcutSheet = shortcuts.Component;
export const LazyBulkStatusScreen = bulk.Component;
export const LazyAdminScreen = admin.Component;
export const LazyModerationQueueScreen = moderationQueue.Component;
export const LazyModerationCaseScreen = moderationCase.Component;

/** The performance mark set when the first queue is interactive, before anything is preloaded. */
export const QUEUE_INTERACTIVE_MARK = 'console:queue-interactive';

let startPreload: () => void = () => undefined;
const preloaded = new Promise<void>((resolve) => {
  startPreload = () => {
    startPreload = () => undefined;
    void Promise.all([petition, outbox, palette, shortcuts].map((screen) => screen.preload().catch(() => undefined))).then(() => resolve());
  };
});

/**
 * Starts what the workspace does after its first screen, once: loading the screens every staff member uses
 * and the background work with colleagues' notes (workspaceBackground.tsx). Called when the first queue is
 * interactive, and by the workspace when its screen is not a queue, a panel is asked for, or
 * AFTER_FIRST_SCREEN_MS have passed (a queue whose read hangs), so it always starts.
 */
export function startAfterFirstScreen(): void {
  startPreload();
  background.load().catch(() => undefined);
}

/** The latest the workspace waits for its first queue before starting what comes after it anyway. */
export const AFTER_FIRST_SCREEN_MS = 3_000;

/** Settles once those screens are loaded (never before startAfterFirstScreen was called). */
export function preloadedWorkScreens(): Promise<void> {
  return preloaded;
}

/** A module fetched once, and a hook that gives it once there (one re-render when it arrives, else null). */
function lazyModule<M>(load: () => Promise<M>, loadOnSubscribe: boolean) {
  let module: M | null = null;
  let loading: Promise<M> | null = null;
  let arrived: (loaded: M) => void = () => undefined;
  const arrival = new Promise<M>((resolve) => (arrived = resolve));
  const listeners = new Set<() => void>();
  const loadOnce = (): Promise<M> => {
    loading ??= load().then(
      (loaded) => {
        module = loaded;
        arrived(loaded);
        for (const listener of listeners) listener();
        return loaded;
      },
      (error: unknown) => {
        loading = null; // the next call tries again
        throw error;
      },
    );
    return loading;
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    if (loadOnSubscribe) loadOnce().catch(() => undefined);
    return () => listeners.delete(listener);
  };
  const current = () => module;
  // (The same on a server render: tests render a workspace once they have loaded the modules.)
  const use = (): M | null => useSyncExternalStore(subscribe, current, current);
  return { load: loadOnce, use, arrival };
}

const frame = lazyModule(() => import('./workspaceFrame.tsx'), true);
const background = lazyModule(() => import('./workspaceBackground.tsx'), false);

/** The workspace frame's module (workspaceFrame.tsx), fetched once. */
export const loadWorkspaceFrame: () => Promise<typeof WorkspaceFrameModule> = frame.load;

/**
 * The workspace frame's components once their chunk is there, else null (the caller renders nothing in
 * their place meanwhile): requested by the first call, one re-render when it arrives, no Suspense boundary
 * per queue row.
 */
export const useWorkspaceFrame: () => typeof WorkspaceFrameModule | null = frame.use;

/**
 * Settles once the workspace's background module (workspaceBackground.tsx) is there, without asking for it
 * (startAfterFirstScreen does); what waits on it runs in the order it asked.
 */
export const workspaceBackgroundArrival: Promise<typeof WorkspaceBackgroundModule> = background.arrival;

/** Its components once the chunk is there, else null; unlike the frame, rendering does not request it. */
export const useWorkspaceBackground: () => typeof WorkspaceBackgroundModule | null = background.use;
