/**
 * What the workspace keeps doing in the background: reading the queues (again when the connection
 * comes back), reading the outbox, and telling the user what happened to their actions: toasts,
 * queue reloads once actions apply, a desktop notification when something needs attention while
 * the window is not focused.
 */
import { useEffect } from 'react';
import { call } from './consoleApi.ts';
import { usePetitionsVersion } from '../stores/petitionsVersion.ts';
import { isAttention, visibleQueues } from './queues.ts';
import { useStores } from './state/context.tsx';
import type { ConsoleStores, OutboxTransition } from './state/stores.ts';
import { useUser } from './state/selectors.ts';

export function useConsoleEffects(): void {
  const stores = useStores();
  const user = useUser();
  const connection = stores.session((s) => s.session?.connection ?? 'offline');

  useEffect(() => {
    void stores.outbox.getState().refresh().catch(() => undefined);
  }, [stores]);

  // Read on start and again whenever the backend is reachable again: fresher data, same screens.
  useEffect(() => {
    for (const kind of visibleQueues(user)) void stores.data.getState().loadQueue(kind);
    void stores.data.getState().loadTerms();
  }, [stores, user, connection]);

  useEffect(() => stores.outbox.getState().onTransitions((changes) => reactToTransitions(stores, changes)), [stores]);
}

export function reactToTransitions(stores: ConsoleStores, changes: OutboxTransition[]): void {
  const toasts = stores.toasts.getState();
  const applied = changes.filter((c) => c.entry.state === 'applied');
  const attention = changes.filter((c) => isAttention(c.entry.state) && !isAttention(c.from ?? 'pending'));
  // A bulk override applies many rows at once: one toast for the lot.
  if (applied.length === 1) toasts.push('success', `Applied: ${applied[0]!.entry.summary}`);
  else if (applied.length > 1) toasts.push('success', `${applied.length} actions applied.`);
  if (attention.length === 1) {
    const { entry } = attention[0]!;
    toasts.push('error', `Needs attention: ${entry.summary}${entry.lastError ? ` (${entry.lastError})` : ''}`);
  } else if (attention.length > 1) toasts.push('error', `${attention.length} actions need attention.`);

  if (applied.length) {
    // The reused staff screens (terms, bans, audit) reload on this counter.
    usePetitionsVersion.getState().bump();
    const user = stores.session.getState().session?.user ?? null;
    for (const kind of visibleQueues(user)) void stores.data.getState().loadQueue(kind);
    const petitionIds = new Set(
      applied.flatMap((c) => ('petitionId' in c.entry.action ? [c.entry.action.petitionId] : [])),
    );
    const loadedPages = stores.data.getState().petitions;
    for (const id of petitionIds) if (loadedPages[id]) void stores.data.getState().loadPetition(id);
  }

  if (attention.length && typeof document !== 'undefined' && !document.hasFocus()) {
    const body =
      attention.length === 1
        ? `${attention[0]!.entry.summary}: ${attention[0]!.entry.lastError ?? attention[0]!.entry.state}`
        : `${attention.length} queued actions need your attention.`;
    void call(stores.api, 'platform:notify', { title: 'Petitions console: action needs attention', body }).catch(
      () => undefined,
    );
  }
}
