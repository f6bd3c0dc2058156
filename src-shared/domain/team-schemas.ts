/**
 * Request and response bodies of working as a team (docs/console-team.md): presence and claims, the
 * queue summary with its ageing targets, and the statistics. The staff event stream carries the
 * presence list and the queue summary in these shapes.
 */
import { z } from 'zod';
import { bodyId, ID_MESSAGES, IsoDate, IsoDateTime, TermId, UserId } from './schemas.ts';
import { PRESENCE_ACTIVITIES, QUEUE_KINDS } from './team-constants.ts';

export const PresenceActivitySchema = z.enum(PRESENCE_ACTIVITIES);
export const QueueKindSchema = z.enum(QUEUE_KINDS);

export const PRESENCE_CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const PRESENCE_CLIENT_ID_MESSAGE = 'A presence client id is 16 to 64 letters, digits, "-" or "_"';

/** One open console or browser tab; random, chosen by the client, and only ever paired with its signed-in user. */
export const PresenceClientId = z.string().regex(PRESENCE_CLIENT_ID_PATTERN, PRESENCE_CLIENT_ID_MESSAGE);
export const PresenceClientParams = z.strictObject({ clientId: PresenceClientId });

export const SetPresenceBody = z.strictObject({
  petitionId: bodyId(ID_MESSAGES.petition),
  activity: PresenceActivitySchema,
  /** The writer typed: the claim lasts PRESENCE_CLAIM_MS from now. A heartbeat leaves it as it is. */
  renewClaim: z.boolean().default(false),
});
export type SetPresenceRequest = z.input<typeof SetPresenceBody>;

export const PresenceEntrySchema = z.object({
  userId: UserId,
  displayName: z.string(),
  /** The office or role the header shows ("Cabinet Minister"). */
  role: z.string(),
  petitionId: z.number().int(),
  /** `responding` or `debating` only while the claim lasts; a lapsed claim reads `viewing`. */
  activity: PresenceActivitySchema,
  /** Since when this person has been on this petition with this activity. */
  since: IsoDateTime,
  /** When the claim lapses unless renewed; null for viewing. */
  claimedUntil: IsoDateTime.nullable(),
});
export type PresenceEntry = z.infer<typeof PresenceEntrySchema>;

export const PresenceListSchema = z.object({ entries: z.array(PresenceEntrySchema) });
export type PresenceList = z.infer<typeof PresenceListSchema>;

export const QueueTargetSchema = z.object({ targetDays: z.number().int(), dueSoonDays: z.number().int() });
export const QueueTargetsSchema = z.object({ response: QueueTargetSchema, debate: QueueTargetSchema });
export const QueueCountsSchema = z.object({ total: z.number().int(), dueSoon: z.number().int(), overdue: z.number().int() });

export const QueueSummarySchema = z.object({
  targets: QueueTargetsSchema,
  queues: z.object({ response: QueueCountsSchema, debate: QueueCountsSchema }),
});
export type QueueSummary = z.infer<typeof QueueSummarySchema>;

// ---------- statistics (docs/console-team.md#statistics) ----------

export const StatisticsQuery = z.strictObject({ term: TermId.optional().describe('The term; default: the current term, else the latest') });

export const HandlingTimesSchema = z.object({
  /** Petitions of the term dealt with after reaching the threshold. */
  handled: z.number().int(),
  /** Days from the threshold to the answer: median, and 90th percentile (nearest rank). Null with none handled. */
  medianDays: z.number().nullable(),
  p90Days: z.number().nullable(),
  /** Still waiting now. */
  waiting: z.number().int(),
});
export type HandlingTimes = z.infer<typeof HandlingTimesSchema>;

export const StatisticsDaySchema = z.object({
  /** A UK calendar day. */
  day: IsoDate,
  petitionsCreated: z.number().int(),
  signatures: z.number().int(),
  /** At the end of the day (or now, today): petitions waiting in each queue, and how many of them overdue. */
  responseBacklog: z.number().int(),
  responseOverdue: z.number().int(),
  debateBacklog: z.number().int(),
  debateOverdue: z.number().int(),
});
export type StatisticsDay = z.infer<typeof StatisticsDaySchema>;

export const StatisticsSchema = z.object({
  term: z.object({ id: z.number().int(), name: z.string(), startDate: IsoDate, endDate: IsoDate }),
  /** The UK days the series cover: the term's first day to its last, or to today while it runs. */
  from: IsoDate,
  to: IsoDate,
  targets: QueueTargetsSchema,
  petitionsCreated: z.number().int(),
  signatures: z.number().int(),
  responseTimes: HandlingTimesSchema,
  debateTimes: HandlingTimesSchema,
  days: z.array(StatisticsDaySchema),
});
export type Statistics = z.infer<typeof StatisticsSchema>;
