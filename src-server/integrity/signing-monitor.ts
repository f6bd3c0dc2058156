/**
 * The signing monitor (docs/integrity.md#unusual-signing): every few seconds, on one node at a time,
 * it reads the signatures made since its last pass (by time, through `signatures_by_signed_at`),
 * adds them to per-petition, per-minute counts (signing_activity: signatures, young accounts, and
 * the most signatures within any 60 seconds), and checks the petitions it saw against the shared
 * rules. A rule a petition trips is raised once per petition, rule and UK day (signing_alerts), and
 * the petitions that raised something get one message each to the staff chat, in the same
 * transaction. Nothing here touches the signing path.
 *
 * It reads a few seconds behind the clock (MONITOR_LAG_MS), so a signing batch stamped just before
 * its commit is not passed over; the watermark is stored, so the next node to run it goes on from there.
 */
import { sql } from 'kysely';
import { londonDay } from '../../src-shared/rules/dates.ts';
import { isYoungAccount } from '../../src-shared/rules/account-age.ts';
import { trippedRules, type UnusualSigningRule } from '../../src-shared/rules/unusual-signing.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { enqueueChatMessage } from '../staff-chat/chat-queue.ts';
import { CHAT_EVENTS } from '../staff-chat/staff-event-messages.ts';
import { unusualSigningMessage } from './integrity-messages.ts';
import { minuteOf, petitionFigures, type PetitionFigures } from './signing-figures.ts';

export const MONITOR_LAG_MS = 5_000;
/** The most signatures one pass reads; a monitor that fell behind catches up over several passes. */
const MAX_ROWS_PER_PASS = 20_000;
/** Per-minute counts are kept a little longer than the hour the figures use. */
const ACTIVITY_KEPT_MS = 2 * 60 * 60_000;
/** A first pass (or one after a long stop) starts an hour back, so the figures are right at once. */
const FIRST_LOOK_BACK_MS = 60 * 60_000;
const BURST_WINDOW_MS = 60_000;
export const WATERMARK_KEY = 'signing_monitor_watermark';

export type MonitorContext = Pick<AppContext, 'db' | 'dialect' | 'locks' | 'signatureCounts' | 'now' | 'config'>;

export interface ScanResult {
  /** False when another node was scanning. */
  ran: boolean;
  counted: number;
  /** Petitions for which a chat message was queued. */
  alerted: number[];
}

interface NewSignature {
  petition_id: number;
  signed_at: string;
  account_created_at: string | null;
}

interface MinuteCounts {
  signatures: number;
  young: number;
  peak: number;
}

/** Per petition and minute: new signatures, young ones, and the most within 60 s ending in that minute. */
async function countMinutes(db: Db, rows: NewSignature[], watermark: string): Promise<Map<number, Map<string, MinuteCounts>>> {
  const byPetition = new Map<number, NewSignature[]>();
  for (const row of rows) byPetition.set(row.petition_id, [...(byPetition.get(row.petition_id) ?? []), row]);
  // Signatures of the minute before the watermark count towards bursts that straddle two passes.
  const earlier = await db
    .selectFrom('signatures')
    .select(['petition_id', 'signed_at'])
    .where('petition_id', 'in', [...byPetition.keys()])
    .where('signed_at', '>', new Date(Date.parse(watermark) - BURST_WINDOW_MS).toISOString())
    .where('signed_at', '<=', watermark)
    .execute();
  const earlierByPetition = new Map<number, number[]>();
  for (const row of earlier) earlierByPetition.set(row.petition_id, [...(earlierByPetition.get(row.petition_id) ?? []), Date.parse(row.signed_at)]);

  const result = new Map<number, Map<string, MinuteCounts>>();
  for (const [petitionId, signed] of byPetition) {
    signed.sort((a, b) => (a.signed_at < b.signed_at ? -1 : a.signed_at > b.signed_at ? 1 : 0));
    const times = [...(earlierByPetition.get(petitionId) ?? []).sort((a, b) => a - b), ...signed.map((row) => Date.parse(row.signed_at))];
    const offset = times.length - signed.length;
    const minutes = new Map<string, MinuteCounts>();
    let first = 0;
    signed.forEach((row, index) => {
      const at = times[offset + index]!;
      while (times[first]! <= at - BURST_WINDOW_MS) first += 1;
      const within = offset + index - first + 1;
      const minute = minuteOf(row.signed_at);
      const counts = minutes.get(minute) ?? { signatures: 0, young: 0, peak: 0 };
      counts.signatures += 1;
      if (isYoungAccount(row.account_created_at, row.signed_at)) counts.young += 1;
      counts.peak = Math.max(counts.peak, within);
      minutes.set(minute, counts);
    });
    result.set(petitionId, minutes);
  }
  return result;
}

export function createSigningMonitor(context: MonitorContext) {
  const greatest = context.dialect === 'postgres' ? sql.raw('greatest') : sql.raw('max');

  async function scan(): Promise<ScanResult> {
    return context.db.transaction().execute(async (trx): Promise<ScanResult> => {
      if (!(await context.locks.tryLock(trx, 'signing-monitor', 'scan'))) return { ran: false, counted: 0, alerted: [] };
      const now = context.now();
      const stored = await trx.selectFrom('site_settings').select('value').where('key', '=', WATERMARK_KEY).executeTakeFirst();
      const lookBack = new Date(now.getTime() - FIRST_LOOK_BACK_MS).toISOString();
      const watermark = stored && stored.value > lookBack ? stored.value : lookBack;
      let upTo = new Date(now.getTime() - MONITOR_LAG_MS).toISOString();
      if (upTo <= watermark) return { ran: true, counted: 0, alerted: [] };

      const newSignatures = trx
        .selectFrom('signatures as s')
        .leftJoin('users as u', 'u.id', 's.user_id')
        .select(['s.petition_id', 's.signed_at', 'u.account_created_at'])
        .where('s.signed_at', '>', watermark)
        .orderBy('s.signed_at');
      let rows = await newSignatures.where('s.signed_at', '<=', upTo).limit(MAX_ROWS_PER_PASS + 1).execute();
      if (rows.length > MAX_ROWS_PER_PASS) {
        // Behind (a first pass, or a node that took over): count up to a stamp whose rows are all here.
        const cut = rows[MAX_ROWS_PER_PASS - 1]!.signed_at;
        const kept = rows.filter((row) => row.signed_at < cut);
        rows = kept.length ? kept : await newSignatures.where('s.signed_at', '<=', cut).execute();
        upTo = rows[rows.length - 1]!.signed_at;
      }
      const alerted: number[] = [];
      if (rows.length) {
        const minutes = await countMinutes(trx, rows, watermark);
        const values = [...minutes].flatMap(([petitionId, byMinute]) => [...byMinute].map(([minute, counts]) => ({ petition_id: petitionId, minute, ...counts })));
        await trx
          .insertInto('signing_activity')
          .values(values)
          .onConflict((oc) =>
            oc.columns(['petition_id', 'minute']).doUpdateSet((eb) => ({
              signatures: eb('signing_activity.signatures', '+', eb.ref('excluded.signatures')),
              young: eb('signing_activity.young', '+', eb.ref('excluded.young')),
              peak: sql<number>`${greatest}(signing_activity.peak, excluded.peak)`,
            })),
          )
          .execute();
        const figures = await petitionFigures(trx, context.signatureCounts, [...minutes.keys()], now);
        alerted.push(...(await raiseAlerts(trx, figures, now)));
      }
      await trx.deleteFrom('signing_activity').where('minute', '<', minuteOf(new Date(now.getTime() - ACTIVITY_KEPT_MS))).execute();
      await trx
        .insertInto('site_settings')
        .values({ key: WATERMARK_KEY, value: upTo, updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: upTo, updated_at: now.toISOString() }))
        .execute();
      return { ran: true, counted: rows.length, alerted };
    });
  }

  /** Records the rules each petition newly trips today and queues one chat message per petition that tripped any. */
  async function raiseAlerts(trx: Db, figures: PetitionFigures[], now: Date): Promise<number[]> {
    const day = londonDay(now);
    const stamp = now.toISOString();
    const alerted: number[] = [];
    const settings = { burstSignatures: context.config.integrity.burstSignatures };
    const tripped = figures.map((f) => ({ figures: f, rules: trippedRules(f, settings) })).filter((entry) => entry.rules.length);
    if (!tripped.length) return alerted;
    const raised = await trx
      .selectFrom('signing_alerts')
      .select(['petition_id', 'rule'])
      .where('day', '=', day)
      .where(
        'petition_id',
        'in',
        tripped.map((entry) => entry.figures.petitionId),
      )
      .execute();
    const already = new Set(raised.map((row) => `${row.petition_id}:${row.rule}`));
    for (const { figures: f, rules } of tripped) {
      const fresh: UnusualSigningRule[] = rules.filter((rule) => !already.has(`${f.petitionId}:${rule}`));
      if (!fresh.length) continue;
      await trx
        .insertInto('signing_alerts')
        .values(fresh.map((rule) => ({ petition_id: f.petitionId, rule, day, raised_at: stamp, detail: JSON.stringify(f) })))
        .execute();
      await enqueueChatMessage(trx, {
        event: CHAT_EVENTS.unusualSigning,
        message: unusualSigningMessage({ figures: f, rules: fresh, now, publicBaseUrl: context.config.publicBaseUrl }),
        now,
      });
      alerted.push(f.petitionId);
    }
    return alerted;
  }

  return { scan };
}

export type SigningMonitor = ReturnType<typeof createSigningMonitor>;
