/**
 * What the console does when queued actions change state (docs/console-outbox.md): toasts, queue and
 * petition reloads once actions apply, a desktop notification when something needs attention while the
 * window is not focused. Part of the workspace background's chunk (workspaceBackground.tsx); useConsoleEffects
 * passes it the outbox's transitions in order from the first render (those before the chunk is there wait for it).
 */
import { call } from './consoleApi.ts';
import { usePetitionsVersion } from '../stores/petitionsVersion.ts';
import { canSeeModerationQueue, isAttention, visibleQueues } from './queues.ts';
import type { OutboxTransition } from './state/outboxViewStore.ts';
import type { ConsoleStores } from './state/stores.ts';

/** How often an online console reads the moderation queue again. */
export const MODERATION_REFRESH_MS = 30_000;

/** The review view (the navigation's count), and the view on screen if it is another one. */
export function refreshModeration(stores: ConsoleStores): Promise<unknown> {
  const moderation = stores.moderation.getState();
  const views = new Set(['review', moderation.view] as const);
  return Promise.all([...views].map((view) => moderation.loadQueue(view)));
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
    // A decision or a ban changes cases: the queue, and the cases already read, again.
    if (canSeeModerationQueue(user) && applied.some((c) => /^(moderation|ban)\./.test(c.entry.action.kind))) {
      void refreshModeration(stores);
      const cases = stores.moderation.getState().cases;
      for (const id of Object.keys(cases).map(Number)) void stores.moderation.getState().loadCase(id);
    }
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
