/**
 * What the workspace does from its first render: reading the queues (again when the connection comes
 * back), the member's last office and the outbox, and passing the outbox's transitions to actionOutcomes.ts
 * (toasts, queue reloads once actions apply, a desktop notification when something needs attention). The
 * rest of the background work starts once the first queue is interactive (BackgroundWork in
 * workspaceBackground.tsx).
 */
import { useEffect } from 'react';
import { workspaceBackgroundArrival } from './lazyScreens.ts';
import { loadLastOffice } from './lastOffice.ts';
import { visibleQueues } from './queues.ts';
import { useStores } from './state/context.tsx';
import { useUser } from './state/selectors.ts';

export function useConsoleEffects(): void {
  const stores = useStores();
  const user = useUser();
  const connection = stores.session((s) => s.session?.connection ?? 'offline');

  useEffect(() => {
    void stores.outbox.getState().refresh().catch(() => undefined);
  }, [stores]);

  // Read on start and again whenever the backend is reachable again: fresher data, same screens.
  // (The moderation queue, presence and the queues' news start once the first queue is interactive:
  // BackgroundWork in workspaceBackground.tsx.)
  useEffect(() => {
    for (const kind of visibleQueues(user)) void stores.data.getState().loadQueue(kind);
    void stores.data.getState().loadTerms();
  }, [stores, user, connection]);

  // The member's last office, read beside the queues: the response form takes it when it opens, which
  // can be the moment the queue is interactive (r), so it does not wait for the background work.
  useEffect(() => {
    void loadLastOffice(stores, user);
  }, [stores, user]);

  // Registered with the first render, so an action the outbox applies at start is not missed; handled,
  // in order, by actionOutcomes.ts, which comes with the background's chunk: transitions before it is there
  // wait for it (it is requested once the first queue is interactive, lazyScreens.ts).
  useEffect(
    () =>
      stores.outbox.getState().onTransitions((changes) => {
        workspaceBackgroundArrival.then((background) => background.reactToTransitions(stores, changes)).catch(() => undefined);
      }),
    [stores],
  );
}
