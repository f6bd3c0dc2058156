/**
 * The command palette's catalogue: screens and queues, actions the signed-in rank may take, and
 * petitions by number or title. Pure, so what each rank is offered is unit-tested.
 */
import type { Petition, User } from '../../src-shared/domain/schemas.ts';
import { canManageDebate, canManageGovernmentResponse, isAdministrator } from '../../src-shared/rules/permissions.ts';
import { MODERATION_TEXTS } from '../../src-shared/domain/moderation-texts.ts';
import { canBulkOverride, canSeeModerationQueue, matchesSearch, QUEUES, visibleQueues } from './queues.ts';
import type { AdminSection, CaseControl, Overlay, Screen } from './state/navStore.ts';

export type CommandEffect =
  | { type: 'go'; screen: Screen }
  | { type: 'overlay'; overlay: Overlay }
  | { type: 'sync' }
  | { type: 'signOut' };

export interface Command {
  id: string;
  label: string;
  group: 'Go to' | 'Actions' | 'Petitions';
  effect: CommandEffect;
}

const ADMIN_LABELS: Record<AdminSection, string> = {
  terms: 'Parliamentary terms',
  assign: 'Assign petitions to a term',
  maintenance: 'Maintenance mode',
  bans: 'Bans and ban statistics',
  status: 'Status override (one petition)',
  integrity: 'Unusual signing and signature invalidation',
  audit: 'Audit log',
  statistics: 'Statistics',
};

export function staticCommands(user: User | null, current: Screen): Command[] {
  const commands: Command[] = visibleQueues(user).map((kind) => ({
    id: `queue:${kind}`,
    label: `Queue: ${QUEUES[kind].title}`,
    group: 'Go to',
    effect: { type: 'go', screen: { name: 'queue', kind } },
  }));
  if (canSeeModerationQueue(user)) {
    commands.push({ id: 'queue:moderation', label: `Queue: ${MODERATION_TEXTS.queueTitle}`, group: 'Go to', effect: { type: 'go', screen: { name: 'moderation' } } });
  }
  commands.push({ id: 'outbox', label: 'Outbox', group: 'Go to', effect: { type: 'overlay', overlay: 'outbox' } });
  if (canBulkOverride(user)) {
    commands.push({ id: 'bulk', label: 'Bulk status override', group: 'Go to', effect: { type: 'go', screen: { name: 'bulk' } } });
  }
  if (isAdministrator(user)) {
    for (const [section, label] of Object.entries(ADMIN_LABELS) as [AdminSection, string][]) {
      commands.push({ id: `admin:${section}`, label, group: 'Go to', effect: { type: 'go', screen: { name: 'admin', section } } });
    }
  }
  commands.push({ id: 'shortcuts', label: 'Keyboard shortcuts', group: 'Go to', effect: { type: 'overlay', overlay: 'shortcuts' } });
  commands.push({ id: 'sync', label: 'Sync now', group: 'Actions', effect: { type: 'sync' } });
  if (current.name === 'petition') {
    if (canManageGovernmentResponse(user)) {
      commands.push({
        id: 'respond',
        label: `Respond to petition #${current.id}`,
        group: 'Actions',
        effect: { type: 'go', screen: { ...current, mode: 'respond' } },
      });
    }
    if (canManageDebate(user)) {
      commands.push({
        id: 'debate',
        label: `Record a debate for petition #${current.id}`,
        group: 'Actions',
        effect: { type: 'go', screen: { ...current, mode: 'debate' } },
      });
    }
  }
  if (current.name === 'moderationCase' && canSeeModerationQueue(user)) {
    // Each puts focus on the decision's control on the case; Enter (or the control's own form) decides.
    const decide = (control: CaseControl, label: string): Command => ({
      id: `case:${control}`,
      label: `${label} petition #${current.id}`,
      group: 'Actions',
      effect: { type: 'go', screen: { ...current, control } },
    });
    commands.push(decide('keep', 'Keep'), decide('hide', 'Hide'), decide('reject', 'Reject'), decide('restore', 'Restore'));
    if (isAdministrator(user)) commands.push(decide('ban', 'Ban the creator of'));
  }
  commands.push({ id: 'signout', label: 'Sign out', group: 'Actions', effect: { type: 'signOut' } });
  return commands;
}

/** Petitions the console knows, plus "open #N" for a number it has not read yet. */
export function petitionCommands(petitions: readonly Petition[], query: string, limit = 8): Command[] {
  const text = query.trim();
  if (!text) return [];
  const found = petitions.filter((p) => matchesSearch(p, text)).slice(0, limit);
  const commands: Command[] = found.map((p) => ({
    id: `petition:${p.id}`,
    label: `#${p.id} ${p.title}`,
    group: 'Petitions',
    effect: { type: 'go', screen: { name: 'petition', id: p.id, mode: null, from: null } },
  }));
  const number = /^#?(\d{1,15})$/.exec(text);
  if (number && !found.some((p) => String(p.id) === number[1])) {
    commands.unshift({
      id: `petition:${number[1]}`,
      label: `Open petition #${number[1]}`,
      group: 'Petitions',
      effect: { type: 'go', screen: { name: 'petition', id: Number(number[1]), mode: null, from: null } },
    });
  }
  return commands;
}

/** Moderation cases the console has read whose number or title matches, for moderators (docs/moderation.md#in-the-staff-console). */
export function caseCommands(cases: readonly { petition: Pick<Petition, 'id' | 'title'> }[], query: string, limit = 5): Command[] {
  const text = query.trim();
  if (!text) return [];
  return cases
    .filter((item) => matchesSearch(item.petition, text))
    .slice(0, limit)
    .map((item) => ({
      id: `case:${item.petition.id}`,
      label: `Moderation case #${item.petition.id} ${item.petition.title}`,
      group: 'Petitions',
      effect: { type: 'go', screen: { name: 'moderationCase', id: item.petition.id, control: null } },
    }));
}

export function filterCommands(commands: readonly Command[], query: string): Command[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return commands.filter((c) => words.every((w) => c.label.toLowerCase().includes(w)));
}

export type { Overlay };
