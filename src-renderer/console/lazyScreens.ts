/**
 * The console's screens that an interactive queue does not need, each its own chunk: the initial
 * JavaScript carries the workspace's outline, the queue and the stores only (at most 77 KB gzip, React
 * included: guarded by tests/console-shell/console-build.test.ts, printed by `npm run perf:console`).
 * The frame around the queue (navigation, top bar state, presence notes, toasts) and the background
 * work are one chunk of their own (workspaceFrame.tsx), requested as the workspace first renders.
 *
 * `preloadWorkScreens` fetches the petition screen and the panels once a queue is on screen. A
 * screen whose code is already there renders at once, without a Suspense pass: `r` or Ctrl+K must
 * put the cursor in the form or the palette before the next key arrives, or that key would be lost
 * (or taken for a shortcut).
 */
import { createElement, lazy, useState, useSyncExternalStore } from 'react';
import type { ComponentType } from 'react';
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

/** Starts loading the screens every staff member uses, once (after the first queue is interactive). */
export function preloadWorkScreens(): void {
  startPreload();
}

/** Settles once those screens are loaded (never before preloadWorkScreens was called). */
export function preloadedWorkScreens(): Promise<void> {
  return preloaded;
}

type WorkspaceFrame = typeof WorkspaceFrameModule;
let frame: WorkspaceFrame | null = null;
let frameLoading: Promise<WorkspaceFrame> | null = null;
const frameListeners = new Set<() => void>();

/** The workspace frame's module (workspaceFrame.tsx), fetched once. */
export function loadWorkspaceFrame(): Promise<WorkspaceFrame> {
  frameLoading ??= import('./workspaceFrame.tsx').then(
    (module) => {
      frame = module;
      for (const listener of frameListeners) listener();
      return module;
    },
    (error: unknown) => {
      frameLoading = null; // the next component that asks tries again
      throw error;
    },
  );
  return frameLoading;
}

function subscribeToFrame(listener: () => void): () => void {
  frameListeners.add(listener);
  loadWorkspaceFrame().catch(() => undefined);
  return () => frameListeners.delete(listener);
}

/**
 * The workspace frame's components once their chunk is there, else null (the caller renders nothing in
 * their place meanwhile): one re-render when it arrives, no Suspense boundary per queue row.
 */
export function useWorkspaceFrame(): WorkspaceFrame | null {
  const current = () => frame;
  // (The same on a server render: tests render a workspace once they have loaded the frame.)
  return useSyncExternalStore(subscribeToFrame, current, current);
}
