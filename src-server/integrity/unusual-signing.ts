/**
 * The unusual-signing screen's data (docs/integrity.md#unusual-signing): petitions that raised an
 * alert today first, then the petitions signed most in the last hour, each with its figures, the
 * rules they trip now and the alerts raised. Read from what the monitor counted; nothing is
 * computed over the signatures themselves beyond the first twenty of a petition.
 */
import { YOUNG_ACCOUNT_DAYS } from '../../src-shared/domain/constants.ts';
import type { UnusualSigning } from '../../src-shared/domain/integrity-schemas.ts';
import { londonDay } from '../../src-shared/rules/dates.ts';
import { trippedRules, type UnusualSigningRule } from '../../src-shared/rules/unusual-signing.ts';
import type { AppContext } from '../context.ts';
import { lastHourActivity, petitionFigures, toUnusualPetition } from './signing-figures.ts';
import { WATERMARK_KEY } from './signing-monitor.ts';

/** Petitions the screen lists at most. */
export const UNUSUAL_SIGNING_LIST_MAX = 50;

export async function readUnusualSigning(context: Pick<AppContext, 'db' | 'signatureCounts' | 'config' | 'now'>): Promise<UnusualSigning> {
  const now = context.now();
  const { db } = context;
  const alerts = await db
    .selectFrom('signing_alerts')
    .select(['petition_id', 'rule', 'raised_at'])
    .where('day', '=', londonDay(now))
    .orderBy('raised_at', 'desc')
    .execute();
  const activity = await lastHourActivity(db, now);
  const alerted = [...new Set(alerts.map((row) => row.petition_id))];
  const busiest = [...activity]
    .filter(([id]) => !alerted.includes(id))
    .sort(([idA, a], [idB, b]) => b.lastHour - a.lastHour || idA - idB)
    .map(([id]) => id);
  const listed = [...alerted, ...busiest].slice(0, UNUSUAL_SIGNING_LIST_MAX);
  const figures = await petitionFigures(db, context.signatureCounts, listed, now, activity);
  const byId = new Map(figures.map((f) => [f.petitionId, f]));
  const settings = { burstSignatures: context.config.integrity.burstSignatures };
  const watermark = await db.selectFrom('site_settings').select('value').where('key', '=', WATERMARK_KEY).executeTakeFirst();
  return {
    asOf: now.toISOString(),
    countedUpTo: watermark?.value ?? null,
    settings: {
      burstSignatures: settings.burstSignatures,
      youngAccountDays: YOUNG_ACCOUNT_DAYS,
      minAccountAgeDays: context.config.integrity.minAccountAgeDays,
    },
    petitions: listed.flatMap((id) => {
      const f = byId.get(id);
      if (!f) return [];
      const raised = alerts
        .filter((row) => row.petition_id === id)
        .map((row) => ({ rule: row.rule as UnusualSigningRule, raisedAt: row.raised_at }));
      return [toUnusualPetition(f, trippedRules(f, settings), raised)];
    }),
  };
}
