/**
 * The unusual-signing figures of petitions (docs/integrity.md#unusual-signing), read from what the
 * signing monitor counted per minute (signing_activity) and from the petitions themselves. Used by
 * the monitor to decide alerts and by the staff screens to show them.
 */
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import type { UnusualPetition } from '../../src-shared/domain/integrity-schemas.ts';
import { isYoungAccount } from '../../src-shared/rules/account-age.ts';
import { earlierHourlyRate, WATCHED_THRESHOLDS, type SigningFigures, type UnusualSigningRule } from '../../src-shared/rules/unusual-signing.ts';
import type { Db } from '../db/schema.ts';
import type { SignatureCounts } from '../petitions/signature-counts.ts';

const HOUR_MS = 60 * 60 * 1000;

/** The minute bucket of an instant: YYYY-MM-DDTHH:MM (UTC), a prefix of the stored ISO stamps. */
export function minuteOf(instant: string | Date): string {
  return (typeof instant === 'string' ? instant : instant.toISOString()).slice(0, 16);
}

/** The first minute inside the last hour (the current minute and the 59 before it). */
export function lastHourStart(now: Date): string {
  return minuteOf(new Date(now.getTime() - HOUR_MS + 60_000));
}

export interface PetitionFigures extends SigningFigures {
  petitionId: number;
  title: string;
  status: PetitionStatus;
}

interface ActivityTotals {
  lastHour: number;
  young: number;
  peak: number;
}

export async function lastHourActivity(db: Db, now: Date, petitionIds?: readonly number[]): Promise<Map<number, ActivityTotals>> {
  let query = db
    .selectFrom('signing_activity')
    .select((eb) => [
      'petition_id',
      eb.fn.sum<number>('signatures').as('last_hour'),
      eb.fn.sum<number>('young').as('young'),
      eb.fn.max<number>('peak').as('peak'),
    ])
    .where('minute', '>=', lastHourStart(now))
    .groupBy('petition_id');
  if (petitionIds) {
    if (!petitionIds.length) return new Map();
    query = query.where('petition_id', 'in', petitionIds);
  }
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.petition_id, { lastHour: Number(row.last_hour), young: Number(row.young), peak: Number(row.peak) }]));
}

/** For each watched threshold the petition has reached: how many of the signatures that reached it came from young accounts. */
async function firstSignersAges(db: Db, petitionId: number, signatures: number): Promise<{ threshold: number; young: number }[]> {
  const reached = WATCHED_THRESHOLDS.filter((threshold) => signatures >= threshold);
  if (!reached.length) return [];
  const rows = await db
    .selectFrom('signatures as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select(['s.signed_at', 'u.account_created_at'])
    .where('s.petition_id', '=', petitionId)
    .orderBy('s.signed_at')
    .orderBy('s.user_id')
    .limit(Math.max(...reached))
    .execute();
  const young = rows.map((row) => isYoungAccount(row.account_created_at, row.signed_at));
  return reached.map((threshold) => ({ threshold, young: young.slice(0, threshold).filter(Boolean).length }));
}

/** The figures of these petitions now; petitions that no longer exist are left out. */
export async function petitionFigures(
  db: Db,
  counts: Pick<SignatureCounts, 'live'>,
  petitionIds: readonly number[],
  now: Date,
  activity?: Map<number, ActivityTotals>,
): Promise<PetitionFigures[]> {
  if (!petitionIds.length) return [];
  const totals = activity ?? (await lastHourActivity(db, now, petitionIds));
  const rows = await db
    .selectFrom('petitions')
    .select(['id', 'title', 'status', 'signature_count', 'created_at'])
    .where('id', 'in', petitionIds)
    .execute();
  const figures: PetitionFigures[] = [];
  for (const row of rows) {
    const signatures = counts.live(row.id, row.signature_count);
    const recent = totals.get(row.id) ?? { lastHour: 0, young: 0, peak: 0 };
    figures.push({
      petitionId: row.id,
      title: row.title,
      status: row.status as PetitionStatus,
      signatures,
      lastHour: recent.lastHour,
      earlierHourlyRate: earlierHourlyRate({ signatures, lastHour: recent.lastHour, createdAt: row.created_at, now }),
      youngLastHour: recent.young,
      peakMinute: recent.peak,
      firstSigners: await firstSignersAges(db, row.id, signatures),
    });
  }
  return figures;
}

export function toUnusualPetition(
  figures: PetitionFigures,
  rules: UnusualSigningRule[],
  alerts: { rule: UnusualSigningRule; raisedAt: string }[],
): UnusualPetition {
  return {
    petitionId: figures.petitionId,
    title: figures.title,
    status: figures.status,
    signatures: figures.signatures,
    lastHour: figures.lastHour,
    earlierHourlyRate: Math.round(figures.earlierHourlyRate * 100) / 100,
    youngLastHour: figures.youngLastHour,
    peakMinute: figures.peakMinute,
    firstSigners: [...figures.firstSigners],
    rules,
    alerts,
  };
}
