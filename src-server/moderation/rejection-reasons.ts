/**
 * The administrator's rejection reasons (docs/moderation.md#rejection-reasons): a stable code, a
 * title moderators choose by, the text the public reads on a rejected petition's tombstone, and
 * whether the reason is hidden (the petition then stays out of everything: 404, no tombstone).
 * A petition keeps the code; its tombstone always shows the reason's current text.
 */
import type { PublicRejection } from '../../src-shared/domain/schemas.ts';
import type { RejectionReason } from '../../src-shared/domain/moderation-schemas.ts';
import type { Db } from '../db/schema.ts';

/** Held by a rejection choosing a reason and by the reason's deletion, so a reason in use is never deleted. */
export const REJECTION_REASON_LOCK = 'rejection-reason';

export interface StoredRejectionReason {
  code: string;
  title: string;
  publicText: string;
  hidden: boolean;
}

function toReason(row: { code: string; title: string; public_text: string; hidden: number }): StoredRejectionReason {
  return { code: row.code, title: row.title, publicText: row.public_text, hidden: row.hidden === 1 };
}

/** In the administrator's order, each with how many petitions are rejected with it now. */
export async function listRejectionReasons(db: Db): Promise<RejectionReason[]> {
  const rows = await db.selectFrom('rejection_reasons').selectAll().orderBy('position').orderBy('code').execute();
  const uses = await db
    .selectFrom('petitions')
    .select(['moderation_reason_code as code', (eb) => eb.fn.countAll<number>().as('total')])
    .where('moderation_state', '=', 'rejected')
    .groupBy('moderation_reason_code')
    .execute();
  const inUse = new Map(uses.map((use) => [use.code, Number(use.total)]));
  return rows.map((row) => ({ ...toReason(row), inUse: inUse.get(row.code) ?? 0 }));
}

export async function findRejectionReason(db: Db, code: string): Promise<StoredRejectionReason | null> {
  const row = await db.selectFrom('rejection_reasons').selectAll().where('code', '=', code).executeTakeFirst();
  return row ? toReason(row) : null;
}

/** Creates the reason (last in the list) or rewrites it; says which it was. */
export async function saveRejectionReason(
  db: Db,
  reason: StoredRejectionReason,
  now: Date,
): Promise<{ created: boolean; before: StoredRejectionReason | null }> {
  const before = await findRejectionReason(db, reason.code);
  const values = { title: reason.title, public_text: reason.publicText, hidden: reason.hidden ? 1 : 0, updated_at: now.toISOString() };
  if (before) {
    await db.updateTable('rejection_reasons').set(values).where('code', '=', reason.code).execute();
    return { created: false, before };
  }
  const last = await db.selectFrom('rejection_reasons').select((eb) => eb.fn.max('position').as('position')).executeTakeFirst();
  await db
    .insertInto('rejection_reasons')
    .values({ code: reason.code, ...values, position: Number(last?.position ?? 0) + 1 })
    .execute();
  return { created: true, before: null };
}

export async function countPetitionsRejectedWith(db: Db, code: string): Promise<number> {
  const row = await db
    .selectFrom('petitions')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('moderation_state', '=', 'rejected')
    .where('moderation_reason_code', '=', code)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function deleteRejectionReason(db: Db, code: string): Promise<void> {
  await db.deleteFrom('rejection_reasons').where('code', '=', code).execute();
}

/** A rejected petition's reason as the creator and moderators read it (with its hidden flag). */
export async function rejectionOf(
  db: Db,
  row: { moderation_state: string | null; moderation_reason_code: string | null; moderated_at: string | null },
): Promise<(PublicRejection & { hidden: boolean }) | null> {
  if (row.moderation_state !== 'rejected' || row.moderation_reason_code === null) return null;
  const reason = await findRejectionReason(db, row.moderation_reason_code);
  // A reason deleted meanwhile cannot be (it is refused while in use); read it as hidden to be safe.
  if (!reason) return { code: row.moderation_reason_code, title: row.moderation_reason_code, text: '', at: row.moderated_at ?? '', hidden: true };
  return { code: reason.code, title: reason.title, text: reason.publicText, at: row.moderated_at ?? '', hidden: reason.hidden };
}
