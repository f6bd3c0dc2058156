/**
 * The audit log as the staff screens show it (docs/audit.md): readable lines with names and roles,
 * made-at beside applied-at for actions from the console's outbox, and the filter form's rules.
 * Free of React, so it is unit-tested.
 */
import type { AuditLogFilters } from '../../../src-shared/api/client.ts';
import { AUDIT_ACTION_LABELS, isAuditAction } from '../../../src-shared/domain/audit-actions.ts';
import type { AuditEntry, AuditLogActor } from '../../../src-shared/domain/schemas.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';

export function actionLabel(action: string): string {
  if (isAuditAction(action)) return AUDIT_ACTION_LABELS[action];
  // An action this version does not know (an older or newer server): spelled out from its name.
  const words = action.replace(/[._:-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

/** The actor id of what the server did on its own (term closures). */
export const SYSTEM_ACTOR_ID = 'system';

/** "Alex Minister (Cabinet Minister)"; a user the server never saw by id; the server itself as such. */
export function actorText(actor: { id: string; name: string | null; role: string }): string {
  if (actor.id === SYSTEM_ACTOR_ID) return 'The server (automatic)';
  const who = actor.name ?? `User ${actor.id}`;
  return actor.role ? `${who} (${actor.role})` : who;
}

export function targetText(type: string, id: string | null): string {
  switch (type) {
    case 'petition':
      return id ? `Petition #${id}` : 'A petition';
    case 'petitions':
      return 'All petitions';
    case 'term':
      return id ? `Term #${id}` : 'A term';
    case 'ban':
      return id ? `User ${id}` : 'A user';
    case 'site':
      return 'The site';
    case 'notification':
      return 'Staff chat';
    default:
      return id ? `${type} ${id}` : type;
  }
}

export interface AuditLine {
  id: number;
  what: string;
  target: string;
  who: string;
  /** When the action was applied. */
  applied: string;
  /** When it was made, for an action from the console's outbox that reached the server later; else null. */
  made: string | null;
}

export function auditLine(entry: AuditEntry): AuditLine {
  const made = entry.made_at && entry.made_at !== entry.at ? formatDateTime(entry.made_at) : null;
  return {
    id: entry.id,
    what: actionLabel(entry.action),
    target: targetText(entry.target_type, entry.target_id),
    who: actorText({ id: entry.actor_id, name: entry.actor_name, role: entry.actor_role }),
    applied: formatDateTime(entry.at),
    made,
  };
}

/** The filter form as typed: every field a string ('' for "any"). */
export interface AuditFilterDraft {
  actor: string;
  action: string;
  petition: string;
  from: string;
  to: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilterDraft = { actor: '', action: '', petition: '', from: '', to: '' };

export type AuditFilterErrors = Partial<Record<keyof AuditFilterDraft, string>>;

/** The same checks the server makes (it answers 400 otherwise), so a mistake is shown at its field. */
export function auditFilterErrors(draft: AuditFilterDraft): AuditFilterErrors {
  const errors: AuditFilterErrors = {};
  const petition = draft.petition.trim().replace(/^#/, '');
  if (petition && !/^[1-9]\d{0,15}$/.test(petition)) errors.petition = 'Enter a petition number, such as 12';
  if (draft.from && draft.to && draft.from > draft.to) errors.to = 'The end date must not be before the start date';
  return errors;
}

/** The query for the API: empty fields left out, the petition number without its "#". */
export function auditFilters(draft: AuditFilterDraft): AuditLogFilters {
  const filters: AuditLogFilters = {};
  if (draft.actor) filters.actor = draft.actor;
  if (draft.action) filters.action = draft.action;
  const petition = draft.petition.trim().replace(/^#/, '');
  if (petition) filters.petition = Number(petition);
  if (draft.from) filters.from = draft.from;
  if (draft.to) filters.to = draft.to;
  return filters;
}

/** The "who" choices: everyone in the log, as on the entries. */
export function actorOptions(actors: readonly AuditLogActor[]): { value: string; label: string }[] {
  return actors.map((actor) => ({ value: actor.id, label: actorText(actor) }));
}

/** The "what" choices: every action this version knows, by its label. */
export function actionOptions(): { value: string; label: string }[] {
  return Object.entries(AUDIT_ACTION_LABELS)
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en-GB'));
}
