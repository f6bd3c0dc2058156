/**
 * What the console's queues hold, as plain functions over petitions: membership comes from the
 * shared classification rules and who may see a queue from the shared permissions (never a second
 * copy of either); the console only filters, searches and orders.
 */
import type { Petition, User } from '../../src-shared/domain/schemas.ts';
import { QUEUE_KINDS, type QueueKind } from '../../src-shared/domain/team-constants.ts';
import type { OutboxEntry, OutboxState } from '../../src-shared/console/outbox.ts';
import { ATTENTION_STATES } from '../../src-shared/console/outbox-states.ts';
import { isAwaitingDebate, isAwaitingResponse } from '../../src-shared/rules/classification.ts';
import { byLongestWaiting } from '../../src-shared/rules/queue-ageing.ts';
import {
  canManageDebate,
  canManageGovernmentResponse,
  canModerate,
  canOverrideStatus,
  canSeeGovernmentPanel,
} from '../../src-shared/rules/permissions.ts';

export { QUEUE_KINDS, type QueueKind };
export type QueueSort = 'signatures' | 'waiting';
export type FormMode = 'respond' | 'debate';

export interface QueueDefinition {
  kind: QueueKind;
  title: string;
  /** The list endpoint's status filter that returns a superset of the queue (the server's SQL of the same rule). */
  statusFilter: 'awaiting_response' | 'awaiting_debate';
  belongs: (petition: Petition) => boolean;
  allowed: (user: User | null) => boolean;
  mode: FormMode;
}

export const QUEUES: Record<QueueKind, QueueDefinition> = {
  response: {
    kind: 'response',
    title: 'Awaiting government response',
    statusFilter: 'awaiting_response',
    belongs: isAwaitingResponse,
    allowed: canManageGovernmentResponse,
    mode: 'respond',
  },
  debate: {
    kind: 'debate',
    title: 'Awaiting debate',
    statusFilter: 'awaiting_debate',
    belongs: isAwaitingDebate,
    allowed: canManageDebate,
    mode: 'debate',
  },
};

export const NOT_STAFF_TEXT = 'This console is for government and administrator accounts';

/** Government offices (ranks 6–8) and the administrator; everyone else is turned away. */
export function isConsoleUser(user: User | null): boolean {
  return canSeeGovernmentPanel(user);
}

export function visibleQueues(user: User | null): QueueKind[] {
  return QUEUE_KINDS.filter((kind) => QUEUES[kind].allowed(user));
}

/** The moderation queue: the Leader of the House (rank 7) and up, and the administrator. */
export function canSeeModerationQueue(user: User | null): boolean {
  return canModerate(user);
}

/** A queue in the navigation: a petition queue, or the moderation queue (docs/moderation.md#in-the-staff-console). */
export type NavigationQueue = { name: 'queue'; kind: QueueKind } | { name: 'moderation' };

/** The queues this rank works on, in the navigation's order (the keys 1, 2, 3 go to them). */
export function navigationQueues(user: User | null): NavigationQueue[] {
  const queues: NavigationQueue[] = visibleQueues(user).map((kind) => ({ name: 'queue', kind }));
  if (canSeeModerationQueue(user)) queues.push({ name: 'moderation' });
  return queues;
}

export function canBulkOverride(user: User | null): boolean {
  return canOverrideStatus(user);
}

export interface QueueFilters {
  search: string;
  term: number | null;
  tag: string | null;
  sort: QueueSort;
}

export const DEFAULT_FILTERS: QueueFilters = { search: '', term: null, tag: null, sort: 'signatures' };

/** "12", "#12" find petition 12; other text matches the title, case-insensitively. */
export function matchesSearch(petition: Pick<Petition, 'id' | 'title'>, search: string): boolean {
  const query = search.trim().toLowerCase();
  if (!query) return true;
  const number = /^#?(\d+)$/.exec(query);
  if (number) return String(petition.id) === number[1] || petition.title.toLowerCase().includes(query);
  return petition.title.toLowerCase().includes(query);
}

const bySignatures = (a: Petition, b: Petition) => b.signatures - a.signatures || a.id - b.id;

/**
 * The rows a queue shows: what the last read says, plus petitions with an action still on its way
 * (queued, sending, or needing attention) as they were last read in a queue. The local cache shows
 * a queued action as done already; the item leaves the queue once the action applies.
 */
export function withActionsOnTheirWay(
  read: readonly Petition[],
  seen: Readonly<Record<number, Petition>>,
  entries: readonly OutboxEntry[],
): Petition[] {
  const ids = new Set(read.map((p) => p.id));
  const extra: Petition[] = [];
  for (const entry of entries) {
    const id = entryPetitionId(entry);
    if (id === null || ids.has(id) || entry.state === 'applied' || entry.state === 'cancelled') continue;
    const last = seen[id];
    if (last && latestEntryFor(entries, id) === entry) {
      extra.push(last);
      ids.add(id);
    }
  }
  return extra.length ? [...read, ...extra] : [...read];
}

export function queueItems(petitions: readonly Petition[], kind: QueueKind, filters: QueueFilters): Petition[] {
  const queue = QUEUES[kind];
  const items = petitions.filter(
    (p) =>
      queue.belongs(p) &&
      // Hidden or rejected (a decision queued here): out of the queues, as the server's lists leave it out.
      !p.moderation &&
      (filters.term === null || p.termId === filters.term) &&
      (filters.tag === null || p.tags.includes(filters.tag)) &&
      matchesSearch(p, filters.search),
  );
  // Waiting longest first: from when each crossed the queue's threshold (docs/console-team.md#queue-ageing).
  return items.sort(filters.sort === 'signatures' ? bySignatures : byLongestWaiting<Petition>(kind));
}

export function isAttention(state: OutboxState): boolean {
  return ATTENTION_STATES.includes(state);
}

export type ChipTone = 'queued' | 'sending' | 'applied' | 'attention';
export interface OutboxChip {
  tone: ChipTone;
  label: string;
}

function entryPetitionId(entry: OutboxEntry): number | null {
  return 'petitionId' in entry.action ? entry.action.petitionId : null;
}

/** The latest live outbox entry about a petition (cancelled rows are history, not state). */
export function latestEntryFor(entries: readonly OutboxEntry[], petitionId: number): OutboxEntry | null {
  let latest: OutboxEntry | null = null;
  for (const entry of entries) {
    if (entry.state === 'cancelled' || entryPetitionId(entry) !== petitionId) continue;
    if (!latest || entry.seq > latest.seq) latest = entry;
  }
  return latest;
}

/**
 * The queue item's chip (docs/console-outbox.md#outbox-states, shown as: Queued offline, Sending…, Sent ✓,
 * Needs attention ⚠).
 */
export function chipFor(entry: OutboxEntry | null, online: boolean): OutboxChip | null {
  if (!entry) return null;
  switch (entry.state) {
    case 'pending':
    case 'retry_wait':
      return { tone: 'queued', label: online ? 'Queued' : 'Queued offline' };
    case 'sending':
      return { tone: 'sending', label: 'Sending…' };
    case 'applied':
      return { tone: 'applied', label: 'Sent ✓' };
    case 'cancelled':
      return null;
    default:
      return { tone: 'attention', label: 'Needs attention ⚠' };
  }
}

/** The petition after `currentId` in a queue's order, for "submit and move on". */
export function nextInQueue(items: readonly Petition[], currentId: number): Petition | null {
  const index = items.findIndex((p) => p.id === currentId);
  if (index === -1) return items[0] ?? null;
  return items[index + 1] ?? null;
}
