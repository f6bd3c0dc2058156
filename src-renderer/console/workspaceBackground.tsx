/**
 * What the workspace starts once its first queue is interactive (or once the first screen is not a queue, a
 * panel is asked for, or a few seconds have passed: startAfterFirstScreen in lazyScreens.ts): one chunk that
 * is never part of the download up to an interactive queue (docs/operations.md#javascript-weight). It holds the
 * background work a queue does not wait for (the moderation queue and its refresh, colleagues' presence, the
 * queues' news and their desktop notifications), colleagues' notes on queue rows (the presence they show is
 * read by that work), the panels (outbox, palette, shortcuts; the keys that open them are in the entry and only
 * set the navigation store's state, so none is lost meanwhile) and what happens when queued actions change
 * state (actionOutcomes.ts; useConsoleEffects holds the transitions until this is there).
 */
import { Suspense, useEffect, useState } from 'react';
import {
  LazyCommandPalette as CommandPalette,
  LazyOutboxPanel as OutboxPanel,
  LazyShortcutSheet as ShortcutSheet,
  preloadedWorkScreens,
} from './lazyScreens.ts';
import type { Overlay } from './state/navStore.ts';
import { canSeeModerationQueue } from './queues.ts';
import { useStores } from './state/context.tsx';
import { useUser } from './state/selectors.ts';
import { notifyNewPetitions, reloadQueuesOnNews } from './queueNews.ts';
import { MODERATION_REFRESH_MS, refreshModeration } from './actionOutcomes.ts';

export { reactToTransitions } from './actionOutcomes.ts';
export { PresenceNote, PresenceNotice } from './components/Presence.tsx';

/** Renders nothing: keeps the workspace's background work going while it is mounted. */
export function BackgroundWork() {
  const stores = useStores();
  const user = useUser();
  const connection = stores.session((s) => s.session?.connection ?? 'offline');

  // Read on start and again whenever the backend is reachable again.
  useEffect(() => {
    if (!canSeeModerationQueue(user)) return;
    void stores.moderation.getState().loadQueue('review');
    void stores.moderation.getState().loadReasons();
  }, [stores, user, connection]);

  // Members report petitions at any time and the queue has no change feed: while online, read it
  // again every MODERATION_REFRESH_MS (docs/moderation.md#in-the-staff-console).
  useEffect(() => {
    if (!canSeeModerationQueue(user) || connection !== 'online') return undefined;
    const timer = window.setInterval(() => void refreshModeration(stores), MODERATION_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [stores, user, connection]);

  // Colleagues and the queues' news come over the staff event stream (docs/console-team.md).
  useEffect(() => {
    void stores.presence.getState().load();
  }, [stores]);
  useEffect(() => {
    const stopReloads = reloadQueuesOnNews(stores, user);
    const stopNotices = notifyNewPetitions(stores, user);
    return () => {
      stopReloads();
      stopNotices();
    };
  }, [stores, user]);
  return null;
}

/**
 * The panels, mounted (closed) once their code is preloaded, so Ctrl+K, o or ? open them at once
 * with focus inside; before that, each from the first time it opens. Kept mounted afterwards, so
 * closing one returns focus as before.
 */
export function Overlays({ overlay, onClose }: { overlay: Overlay; onClose: () => void }) {
  const [opened, setOpened] = useState<ReadonlySet<Overlay>>(new Set());
  const [preloaded, setPreloaded] = useState(false);
  useEffect(() => {
    let current = true;
    void preloadedWorkScreens().then(() => current && setPreloaded(true));
    return () => {
      current = false;
    };
  }, []);
  useEffect(() => {
    if (overlay && !opened.has(overlay)) setOpened(new Set([...opened, overlay]));
  }, [overlay, opened]);
  const shown = (which: Exclude<Overlay, null>) => preloaded || overlay === which || opened.has(which);
  return (
    <Suspense fallback={null}>
      {shown('outbox') ? <OutboxPanel open={overlay === 'outbox'} onClose={onClose} /> : null}
      {shown('palette') ? <CommandPalette open={overlay === 'palette'} onClose={onClose} /> : null}
      {shown('shortcuts') ? <ShortcutSheet open={overlay === 'shortcuts'} onClose={onClose} /> : null}
    </Suspense>
  );
}
