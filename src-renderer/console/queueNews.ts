/**
 * News of the queues (docs/console-team.md#desktop-notifications): the staff event stream says the
 * queues changed, so they are read again; a petition that newly entered a queue this member works
 * becomes a desktop notification while the window is not focused.
 */
import type { Petition, User } from '../../src-shared/domain/schemas.ts';
import { signaturesText } from '../components/format.ts';
import { platform } from '../platform/index.ts';
import { QUEUES, visibleQueues, type QueueKind } from './queues.ts';
import type { ConsoleStores } from './state/stores.ts';
import type { Loaded } from './state/cachedReads.ts';

const QUEUE_NEWS_TITLES: Record<QueueKind, { one: string; many: (n: number) => string }> = {
  response: { one: 'New petition awaiting a government response', many: (n) => `${n} new petitions awaiting a government response` },
  debate: { one: 'New petition awaiting a debate', many: (n) => `${n} new petitions awaiting a debate` },
};

/** The notification for petitions that entered a queue. */
export function queueNews(kind: QueueKind, arrived: readonly Petition[]): { title: string; body: string } {
  const titles = QUEUE_NEWS_TITLES[kind];
  if (arrived.length === 1) {
    const [petition] = arrived as [Petition];
    return { title: titles.one, body: `#${petition.id} ${petition.title} (${signaturesText(petition.signatures)})` };
  }
  return { title: titles.many(arrived.length), body: arrived.map((p) => `#${p.id} ${p.title}`).join('; ') };
}

/** Reads the queues again whenever the live queue summary changes (not on the first one: the queues were just read). */
export function reloadQueuesOnNews(stores: ConsoleStores, user: User | null): () => void {
  let last = JSON.stringify(stores.presence.getState().view.queues?.queues ?? null);
  return stores.presence.subscribe((state) => {
    const next = JSON.stringify(state.view.queues?.queues ?? null);
    if (next === last) return;
    const first = last === 'null';
    last = next;
    if (first || next === 'null') return;
    for (const kind of visibleQueues(user)) void stores.data.getState().loadQueue(kind);
  });
}

/**
 * Compares each live read of a queue with the one before; petitions that arrived are announced
 * when the window is not focused. The first read, and reads from the offline cache, announce nothing.
 */
export function notifyNewPetitions(stores: ConsoleStores, user: User | null, focused: () => boolean = () => document.hasFocus()): () => void {
  const known = new Map<QueueKind, Set<number>>();
  const kinds = visibleQueues(user);
  /** The queue's waiting petitions when it is a fresh read from the server, else null. */
  const waitingIn = (kind: QueueKind, queue: Loaded<Petition[]>) =>
    queue.status === 'ready' && queue.data && !queue.fromCache ? queue.data.filter(QUEUES[kind].belongs) : null;
  // What is already read is the baseline: this starts with the workspace's background (a lazy chunk), usually
  // after the first read, and the next read may be the very one that brings a new petition.
  for (const kind of kinds) {
    const waiting = waitingIn(kind, stores.data.getState().queues[kind]);
    if (waiting) known.set(kind, new Set(waiting.map((p) => p.id)));
  }
  return stores.data.subscribe((state, previous) => {
    for (const kind of kinds) {
      const queue = state.queues[kind];
      if (queue === previous.queues[kind]) continue;
      const waiting = waitingIn(kind, queue);
      if (!waiting) continue;
      const before = known.get(kind);
      known.set(kind, new Set(waiting.map((p) => p.id)));
      if (!before) continue;
      const arrived = waiting.filter((p) => !before.has(p.id));
      if (arrived.length && !focused()) {
        const { title, body } = queueNews(kind, arrived);
        void platform.notify(title, body).catch(() => undefined);
      }
    }
  });
}
