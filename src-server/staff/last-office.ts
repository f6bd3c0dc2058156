/**
 * The ministerial office a member chose for their latest government response, read from the audit
 * log (their latest `government_response.add` or `.edit` entry, whose petition records the office
 * they signed with). Nothing else is stored: the form of the web panel and of the console start
 * from it (docs/roles.md#offices-tied-to-a-rank).
 */
import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { ContributionMetaSchema } from '../../src-shared/domain/schemas.ts';
import type { Db } from '../db/schema.ts';

const SavedResponse = z.object({ governmentResponseMeta: ContributionMetaSchema.nullable() });

export async function lastOfficeInAuditLog(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('audit_log')
    .select('after')
    .where('actor_id', '=', userId)
    .where('action', 'in', [AUDIT_ACTIONS.responseAdd, AUDIT_ACTIONS.responseEdit])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row?.after) return null;
  const saved = SavedResponse.safeParse(JSON.parse(row.after));
  const meta = saved.success ? saved.data.governmentResponseMeta : null;
  // The entry's actor wrote the response last: an edit records them as editor, an add as author.
  return meta ? (meta.editedByRole ?? meta.addedByRole) : null;
}
