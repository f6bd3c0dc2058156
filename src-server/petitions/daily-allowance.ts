/**
 * The daily creation limit (§5, §9): petitions a user created during the current Europe/London
 * calendar day, counted from the petitions table so every client sees the same allowance.
 */
import { DAILY_PETITION_LIMIT } from '../../src-shared/domain/constants.ts';
import type { DailyAllowance } from '../../src-shared/domain/schemas.ts';
import { londonDayBounds } from '../../src-shared/rules/dates.ts';
import type { Db } from '../db/schema.ts';
import { findBan } from '../bans/bans-repository.ts';

/** Served by the (creator_id, created_at) index. */
export async function petitionsCreatedToday(db: Db, userId: string, now: Date): Promise<number> {
  const { start, end } = londonDayBounds(now);
  const row = await db
    .selectFrom('petitions')
    .select((eb) => eb.fn.countAll<number>().as('used'))
    .where('creator_id', '=', userId)
    .where('created_at', '>=', start.toISOString())
    .where('created_at', '<', end.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/** Also says whether the user is banned, so clients can tell them before they type (§5: bans stop creation). */
export async function dailyAllowance(db: Db, userId: string, now: Date): Promise<DailyAllowance> {
  const used = await petitionsCreatedToday(db, userId, now);
  const ban = await findBan(db, userId);
  return {
    limit: DAILY_PETITION_LIMIT,
    used,
    remaining: Math.max(0, DAILY_PETITION_LIMIT - used),
    resetsAt: londonDayBounds(now).end.toISOString(),
    banned: ban !== null,
    banReason: ban?.reason ?? null,
  };
}
