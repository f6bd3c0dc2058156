/** Derived views the screens share: who is signed in, whether we are online, each queue's items. */
import { useMemo } from 'react';
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import { queueItems, withActionsOnTheirWay } from '../queues.ts';
import type { QueueKind } from '../queues.ts';
import { useStores } from './context.tsx';

export function useUser(): User | null {
  return useStores().session((s) => s.session?.user ?? null);
}

export function useOnline(): boolean {
  return useStores().session((s) => s.session?.connection === 'online');
}

export function useQueueItems(kind: QueueKind): Petition[] {
  const { data, outbox } = useStores();
  const items = data((s) => s.queues[kind].data);
  const seen = data((s) => s.seen);
  const entries = outbox((s) => s.entries);
  const filters = data((s) => s.filters[kind]);
  return useMemo(
    () => queueItems(withActionsOnTheirWay(items ?? [], seen, entries), kind, filters),
    [items, seen, entries, kind, filters],
  );
}

/** Queue size in the navigation: everything in the queue, whatever the filters. */
export function useQueueCount(kind: QueueKind): number | null {
  const { data, outbox } = useStores();
  const items = data((s) => s.queues[kind].data);
  const seen = data((s) => s.seen);
  const entries = outbox((s) => s.entries);
  return useMemo(
    () =>
      items
        ? queueItems(withActionsOnTheirWay(items, seen, entries), kind, { search: '', term: null, tag: null, sort: 'signatures' }).length
        : null,
    [items, seen, entries, kind],
  );
}
