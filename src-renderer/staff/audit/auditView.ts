/** Readable lines for the audit log (actions are dotted names such as 'petition.delete'). */
import type { AuditEntry } from '../../../src-shared/domain/schemas.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';

/** Friendly names of the server's audit actions; unknown ones are spelled out from their name. */
const ACTION_LABELS: Record<string, string> = {
  'term.create': 'Term created',
  'term.update': 'Term updated',
  'term.delete': 'Term deleted',
  'term.close_petitions': "Term's petitions closed",
  'term.reopen_petitions': "Term's petitions reopened",
  'petition.assign_term': 'Petition assigned to a term',
  'petition.set_status': 'Petition status changed',
  'petition.delete': 'Petition deleted',
  'petition.delete_all': 'All petitions deleted',
  'government_response.add': 'Government response added',
  'government_response.edit': 'Government response edited',
  'government_response.remove': 'Government response removed',
  'debate.add': 'Debate information added',
  'debate.edit': 'Debate information edited',
  'debate.remove': 'Debate information removed',
  'site.maintenance': 'Maintenance mode changed',
  'ban.create': 'User banned',
  'ban.update': 'Ban updated',
  'ban.remove': 'User unbanned',
  'notification.send': 'Notification sent',
};

export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.replace(/[._:-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

export interface AuditLine {
  id: number;
  when: string;
  who: string;
  what: string;
  target: string;
}

export function auditLine(entry: AuditEntry): AuditLine {
  return {
    id: entry.id,
    when: formatDateTime(entry.at),
    who: entry.actor_role ? `${entry.actor_id} (${entry.actor_role})` : entry.actor_id,
    what: actionLabel(entry.action),
    target: entry.target_id ? `${entry.target_type} ${entry.target_id}` : entry.target_type,
  };
}
