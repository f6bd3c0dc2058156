/** Users barred from creating petitions. The create route asks `isBanned`; the administrator manages the list. */
import type { Ban, BanStats } from '../../src-shared/domain/schemas.ts';
import type { Db } from '../db/schema.ts';

export async function isBanned(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('bans').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export async function findBan(db: Db, userId: string): Promise<Ban | null> {
  const row = await db.selectFrom('bans').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return row ?? null;
}

/** Most recent first: the list is read to review what was done lately. */
export async function listBans(db: Db): Promise<Ban[]> {
  return db.selectFrom('bans').selectAll().orderBy('banned_at', 'desc').orderBy('user_id').execute();
}

export async function banStats(db: Db, now: Date): Promise<BanStats> {
  const row = await db
    .selectFrom('bans')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return {
    total_banned_users: Number(row.total),
    service_available: true,
    cache_info: { source: 'database', generated_at: now.toISOString() },
    error: null,
  };
}

/** A new ban records who and when; banning again only replaces the reason (and who gave it). */
export async function saveBan(db: Db, ban: { userId: string; reason: string; bannedBy: string; now: Date }): Promise<Ban> {
  return db
    .insertInto('bans')
    .values({ user_id: ban.userId, reason: ban.reason, banned_by: ban.bannedBy, banned_at: ban.now.toISOString() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ reason: ban.reason, banned_by: ban.bannedBy }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function removeBan(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('bans').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
