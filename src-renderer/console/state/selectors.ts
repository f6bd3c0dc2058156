/** Derived views the screens share: who is signed in, whether we are online, each queue's items. */
import { useMemo } from 'react';
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import { countByAgeing, DEFAULT_QUEUE_TARGETS, type QueueTargets } from '../../../src-shared/rules/queue-ageing.ts';
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

/** The queues' targets from the server's summary (live, or as last read when offline), else the defaults. */
export function useQueueTargets(): QueueTargets {
  return useStores().presence((s) => s.view.queues?.targets) ?? DEFAULT_QUEUE_TARGETS;
}

/** Queue size in the navigation, and how many are overdue: everything in the queue, whatever the filters. */
export function useQueueCount(kind: QueueKind): { total: number; overdue: number } | null {
  const { data, outbox } = useStores();
  const items = data((s) => s.queues[kind].data);
  const seen = data((s) => s.seen);
  const entries = outbox((s) => s.entries);
  const targets = useQueueTargets();
  return useMemo(() => {
    if (!items) return null;
    const all = queueItems(withActionsOnTheirWay(items, seen, entries), kind, { search: '', term: null, tag: null, sort: 'signatures' });
    return { total: all.length, overdue: countByAgeing(all, kind, Date.now(), targets).overdue };
  }, [items, seen, entries, kind, targets]);
}
