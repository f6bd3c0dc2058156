/**
 * The audit trail of staff actions. Rows are written with the caller's transaction, so an action
 * and its audit entry commit or roll back together.
 */
import type { AuditEntry } from '../../src-shared/domain/schemas.ts';
import { roleLabel, type RoleLabelUser } from '../../src-shared/rules/roles.ts';
import type { Db } from '../db/schema.ts';

export const AUDIT_ACTIONS = {
  termCreate: 'term.create',
  termUpdate: 'term.update',
  termDelete: 'term.delete',
  termClosePetitions: 'term.close_petitions',
  termReopenPetitions: 'term.reopen_petitions',
  petitionAssignTerm: 'petition.assign_term',
  petitionStatus: 'petition.set_status',
  petitionDelete: 'petition.delete',
  petitionDeleteAll: 'petition.delete_all',
  responseAdd: 'government_response.add',
  responseEdit: 'government_response.edit',
  responseRemove: 'government_response.remove',
  debateAdd: 'debate.add',
  debateEdit: 'debate.edit',
  debateRemove: 'debate.remove',
  maintenance: 'site.maintenance',
  ban: 'ban.create',
  banUpdate: 'ban.update',
  unban: 'ban.remove',
  notificationSend: 'notification.send',
} as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

export type AuditTargetType = 'term' | 'petition' | 'petitions' | 'site' | 'ban' | 'notification';

export interface AuditActor extends RoleLabelUser {
  id: string;
}

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string | number | null;
  before: unknown;
  after: unknown;
  at: Date;
}

function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export async function writeAudit(db: Db, record: AuditRecord): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: record.actor.id,
      // The label is stored, not recomputed later: it records the role the actor held at that moment.
      actor_role: roleLabel(record.actor),
      action: record.action,
      target_type: record.targetType,
      target_id: record.targetId === null ? null : String(record.targetId),
      before: toJson(record.before),
      after: toJson(record.after),
      at: record.at.toISOString(),
    })
    .execute();
}

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** Newest first; `before` is an entry id, so pages stay stable while new entries arrive. */
export async function listAudit(db: Db, query: { limit?: number; before?: number }): Promise<AuditEntry[]> {
  let select = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(query.limit ?? AUDIT_PAGE_DEFAULT);
  if (query.before !== undefined) select = select.where('id', '<', query.before);
  const rows = await select.execute();
  return rows.map((row) => ({
    id: row.id,
    actor_id: row.actor_id,
    actor_role: row.actor_role,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    at: row.at,
  }));
}
