/**
 * The daily creation limit (docs/rules.md#daily-limit): petitions a user created during the current Europe/London
 * calendar day, so every client sees the same allowance. A deleted petition still counts: creations
 * are recorded in petition_creations (migration 0008), which outlives the petition; petitions
 * written straight to the table (imports, seeds) count through the petitions table.
 */
import { DAILY_PETITION_LIMIT } from '../../src-shared/domain/constants.ts';
import type { DailyAllowance } from '../../src-shared/domain/schemas.ts';
import { londonDayBounds } from '../../src-shared/rules/dates.ts';
import type { Db } from '../db/schema.ts';
import { findBan } from '../bans/bans-repository.ts';

/** Both halves are served by a (creator_id, created_at) index; UNION counts a petition once. */
export async function petitionsCreatedToday(db: Db, userId: string, now: Date): Promise<number> {
  const { start, end } = londonDayBounds(now);
  const from = start.toISOString();
  const to = end.toISOString();
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('petitions')
        .select('id')
        .where('creator_id', '=', userId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .union(
          eb
            .selectFrom('petition_creations')
            .select('petition_id as id')
            .where('creator_id', '=', userId)
            .where('created_at', '>=', from)
            .where('created_at', '<', to),
        )
        .as('created'),
    )
    .select((eb) => eb.fn.countAll<number>().as('used'))
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/** Records a creation for the limit, and forgets this user's creations of earlier days. */
export async function recordCreation(db: Db, userId: string, petitionId: number, now: Date): Promise<void> {
  await db
    .deleteFrom('petition_creations')
    .where('creator_id', '=', userId)
    .where('created_at', '<', londonDayBounds(now).start.toISOString())
    .execute();
  await db.insertInto('petition_creations').values({ creator_id: userId, petition_id: petitionId, created_at: now.toISOString() }).execute();
}

/**
 * Also says whether the user is banned, so clients can tell them before they type (bans stop creation:
 * docs/rules.md#bans), and whether their account is too young to create (docs/integrity.md#minimum-account-age).
 */
export async function dailyAllowance(db: Db, userId: string, now: Date, accountAgeRefusal: string | null = null): Promise<DailyAllowance> {
  const used = await petitionsCreatedToday(db, userId, now);
  const ban = await findBan(db, userId);
  return {
    accountAgeRefusal,
    limit: DAILY_PETITION_LIMIT,
    used,
    remaining: Math.max(0, DAILY_PETITION_LIMIT - used),
    resetsAt: londonDayBounds(now).end.toISOString(),
    banned: ban !== null,
    banReason: ban?.reason ?? null,
  };
}
