/**
 * The audit trail of staff actions. Rows are written with the caller's transaction, so an action
 * and its audit entry commit or roll back together.
 */
import { recordedMadeAt } from '../../src-shared/console/action-made-at.ts';
import type { AuditAction } from '../../src-shared/domain/audit-actions.ts';
import type { Selectable } from 'kysely';
import type { AuditEntry, AuditLogActor, AuditLogPage } from '../../src-shared/domain/schemas.ts';
import { addDays, londonMidnight } from '../../src-shared/rules/dates.ts';
import { roleLabel, type RoleLabelUser } from '../../src-shared/rules/roles.ts';
import type { AuditLogTable, Db } from '../db/schema.ts';

export type AuditTargetType = 'term' | 'petition' | 'petitions' | 'site' | 'ban' | 'notification' | 'rejection_reason' | 'invalidation' | 'account';

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
  /** When the action was applied. */
  at: Date;
  /**
   * When it was made, for an action that reached the server later (the console's outbox sends
   * X-Action-Made-At; staff/action-made-at.ts reads it); null for one made when applied, and for
   * what the server does on its own. Required, so no writer of a staff action can leave it out
   * (docs/audit.md#made-at-and-applied-at).
   */
  madeAt: Date | null;
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
      made_at: record.madeAt ? recordedMadeAt(record.madeAt, record.at).toISOString() : null,
    })
    .execute();
}

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** What the audit screen filters by (docs/audit.md#reading-the-log); every filter is optional. */
export interface AuditFilters {
  /** A user id, or `system`. */
  actor?: string;
  action?: string;
  /** Entries about this petition. */
  petition?: number;
  /** UK calendar days (YYYY-MM-DD), inclusive, of the time the action was applied. */
  from?: string;
  to?: string;
}

export interface AuditPageQuery extends AuditFilters {
  limit?: number;
  /** An entry id: the page holds entries older than it (the previous page's `nextCursor`). */
  before?: number;
}

type AuditRow = Selectable<AuditLogTable> & { actor_name: string | null };

function filtered(db: Db, filters: AuditFilters) {
  let select = db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_id')
    .selectAll('audit_log')
    .select('users.display_name as actor_name');
  if (filters.actor !== undefined) select = select.where('audit_log.actor_id', '=', filters.actor);
  if (filters.action !== undefined) select = select.where('audit_log.action', '=', filters.action);
  if (filters.petition !== undefined) {
    select = select.where('audit_log.target_type', '=', 'petition').where('audit_log.target_id', '=', String(filters.petition));
  }
  // `at` is ISO-8601 UTC text, so instants compare as text.
  if (filters.from !== undefined) select = select.where('audit_log.at', '>=', londonMidnight(filters.from).toISOString());
  if (filters.to !== undefined) select = select.where('audit_log.at', '<', londonMidnight(addDays(filters.to, 1)).toISOString());
  return select;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    actor_role: row.actor_role,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    at: row.at,
    made_at: row.made_at,
  };
}

/** Newest first; the cursor is an entry id, so pages stay stable while new entries arrive. */
export async function listAudit(db: Db, query: AuditPageQuery): Promise<AuditLogPage> {
  const limit = query.limit ?? AUDIT_PAGE_DEFAULT;
  let select = filtered(db, query).orderBy('audit_log.id', 'desc').limit(limit + 1);
  if (query.before !== undefined) select = select.where('audit_log.id', '<', query.before);
  const rows = await select.execute();
  const items = rows.slice(0, limit).map(toEntry);
  return { items, nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
}

/** Every matching entry, newest first, a page at a time (the CSV export); entries made meanwhile are not included. */
export async function* allAuditEntries(db: Db, filters: AuditFilters, pageSize = 500): AsyncGenerator<AuditEntry[]> {
  let before: number | undefined;
  for (;;) {
    const page = await listAudit(db, { ...filters, limit: pageSize, before });
    if (page.items.length > 0) yield page.items;
    if (page.nextCursor === null) return;
    before = Number(page.nextCursor);
  }
}

/** Everyone who appears in the log, with the role of their latest entry, by name. */
export async function listAuditActors(db: Db): Promise<AuditLogActor[]> {
  const latest = await db
    .selectFrom('audit_log')
    .select(['actor_id', (eb) => eb.fn.max('id').as('last_id')])
    .groupBy('actor_id')
    .execute();
  if (latest.length === 0) return [];
  const rows = await db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_id')
    .select(['audit_log.actor_id', 'audit_log.actor_role', 'users.display_name'])
    .where('audit_log.id', 'in', latest.map((row) => Number(row.last_id)))
    .execute();
  return rows
    .map((row) => ({ id: row.actor_id, name: row.display_name, role: row.actor_role }))
    .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id, 'en-GB') || a.id.localeCompare(b.id));
}
