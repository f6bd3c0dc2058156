/**
 * Petition events and what members read of them: the notification centre (feed), My petitions,
 * mutes and preferences (docs/notifications.md). An event is one thing that happened to one petition
 * (a response, a debate, a closure…), recorded once, whatever the number of signers; each member's
 * feed is read from the events of the petitions they created or signed (fan-out on read).
 */
import { z } from 'zod';
import { DEBATE_THRESHOLD, RESPONSE_THRESHOLD } from './constants.ts';
import {
  EVENT_CLOSURE_REASONS,
  EVENT_REASON_MAX,
  FEED_PAGE_SIZE_MAX,
  FEED_TOPICS,
  MY_PETITION_LISTS,
  MY_PETITIONS_PAGE_SIZE_MAX,
  PETITION_EVENT_KINDS,
  RESPONSE_EXCERPT_MAX,
  type FeedTopic,
} from './feed-constants.ts';
import { IsoDate, IsoDateTime, PetitionStatusSchema, idText, wholeNumberText } from './schemas.ts';

export const PetitionEventKindSchema = z.enum(PETITION_EVENT_KINDS);
export const FeedTopicSchema = z.enum(FEED_TOPICS);

const Excerpt = z.string().max(RESPONSE_EXCERPT_MAX);
const Reason = z.string().max(EVENT_REASON_MAX).nullable();

/**
 * What an event says, by kind: stored as the `detail` JSON of its row (without `kind`, which has its
 * own column) and sent to clients as it is. Small and public on purpose: nothing here names a member.
 */
export const PetitionEventDetailSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('response_added'), excerpt: Excerpt }),
  z.strictObject({ kind: z.literal('response_edited'), excerpt: Excerpt }),
  z.strictObject({ kind: z.literal('debate_scheduled'), date: IsoDate.nullable(), location: z.string().max(200) }),
  z.strictObject({ kind: z.literal('debate_held'), date: IsoDate.nullable(), hansardLink: z.string().max(2000).nullable() }),
  z.strictObject({ kind: z.literal('debate_not_debated'), reason: Reason }),
  z.strictObject({ kind: z.literal('debate_cancelled'), date: IsoDate.nullable(), reason: Reason }),
  z.strictObject({ kind: z.literal('petition_closed'), reason: z.enum(EVENT_CLOSURE_REASONS) }),
  z.strictObject({ kind: z.literal('threshold_reached'), threshold: z.union([z.literal(RESPONSE_THRESHOLD), z.literal(DEBATE_THRESHOLD)]) }),
  z.strictObject({ kind: z.literal('status_changed'), from: PetitionStatusSchema, to: PetitionStatusSchema }),
  z.strictObject({ kind: z.literal('petition_hidden'), reason: Reason }),
  z.strictObject({ kind: z.literal('petition_rejected'), reason: Reason }),
  z.strictObject({ kind: z.literal('petition_restored'), reason: Reason }),
]);
export type PetitionEventDetail = z.infer<typeof PetitionEventDetailSchema>;

// ---------- the notification centre ----------

export const EventId = idText('An event id is a positive whole number, written in digits only');

export const FeedQuery = z.strictObject({
  /** Only events older than this one (the previous page's `nextBefore`): newest first, page after page. */
  before: EventId.optional(),
  limit: wholeNumberText(1, FEED_PAGE_SIZE_MAX).optional(),
});
export type FeedRequest = z.infer<typeof FeedQuery>;

export const FeedPetitionSchema = z.object({ id: z.number().int(), title: z.string(), status: PetitionStatusSchema });

export const FeedItemSchema = z.object({
  id: z.number().int(),
  petition: FeedPetitionSchema,
  detail: PetitionEventDetailSchema,
  /** One line saying what happened ("Government responded on 3 December 2026"): feedEventSummary. */
  summary: z.string(),
  at: IsoDateTime,
  read: z.boolean(),
});
export type FeedItem = z.infer<typeof FeedItemSchema>;

export const FeedPageSchema = z.object({
  items: z.array(FeedItemSchema),
  unread: z.number().int().nonnegative(),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});
export type FeedPage = z.infer<typeof FeedPageSchema>;

export const UnreadCountSchema = z.object({ unread: z.number().int().nonnegative() });
export type UnreadCount = z.infer<typeof UnreadCountSchema>;

export const MarkAllReadBody = z
  .strictObject({
    /** Marks events up to this one (the newest the member saw); absent: every event so far. */
    upTo: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .default({});
export type MarkAllReadRequest = z.input<typeof MarkAllReadBody>;

/** One switch per topic, spelled out so the API document lists them (FEED_TOPICS). */
const TopicSwitches = z.object({
  responses: z.boolean(),
  debates: z.boolean(),
  closures: z.boolean(),
  milestones: z.boolean(),
  status: z.boolean(),
} satisfies Record<FeedTopic, z.ZodBoolean>);

export const FeedPreferencesSchema = z.object({
  /** Which topics appear in the feed (and are pushed); every topic is on until switched off. */
  topics: TopicSwitches,
  /** Web push to this member's devices (wired by the push feature). */
  push: z.boolean(),
});
export type FeedPreferences = z.infer<typeof FeedPreferencesSchema>;

export const FeedPreferencesPatchBody = z.strictObject({
  topics: TopicSwitches.partial().strict().optional(),
  push: z.boolean().optional(),
});
export type FeedPreferencesPatch = z.infer<typeof FeedPreferencesPatchBody>;

export const MutedPetitionSchema = z.object({ petition: FeedPetitionSchema, mutedAt: IsoDateTime });
export const MutedPetitionsSchema = z.object({ items: z.array(MutedPetitionSchema) });
export type MutedPetitions = z.infer<typeof MutedPetitionsSchema>;
export const MuteStateSchema = z.object({ petitionId: z.number().int(), muted: z.boolean() });
export type MuteState = z.infer<typeof MuteStateSchema>;

// ---------- My petitions ----------

export const MyPetitionsQuery = z.strictObject({
  list: z.enum(MY_PETITION_LISTS),
  page: wholeNumberText(1, 99_999).optional(),
  pageSize: wholeNumberText(1, MY_PETITIONS_PAGE_SIZE_MAX).optional(),
});
export type MyPetitionsRequest = z.infer<typeof MyPetitionsQuery>;

export const LatestEventSchema = z.object({ kind: PetitionEventKindSchema, summary: z.string(), at: IsoDateTime });
export type LatestEvent = z.infer<typeof LatestEventSchema>;

export const MyPetitionSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  status: PetitionStatusSchema,
  signatures: z.number().int(),
  tags: z.array(z.string()),
  created: IsoDateTime,
  /** When the member signed it (null: created and since unsigned). */
  signedAt: IsoDateTime.nullable(),
  /** The member stopped updates for it. */
  muted: z.boolean(),
  /** The newest event of the petition for the member's role (creator: every kind; signer: signers' kinds), if any. */
  latestEvent: LatestEventSchema.nullable(),
});
export type MyPetition = z.infer<typeof MyPetitionSchema>;

export const MyPetitionsResultSchema = z.object({
  list: z.enum(MY_PETITION_LISTS),
  items: z.array(MyPetitionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type MyPetitionsResult = z.infer<typeof MyPetitionsResultSchema>;

// ---------- the staff side ----------

export const NotificationAudienceQuery = z.strictObject({ topic: FeedTopicSchema });
export const NotificationAudienceSchema = z.object({
  petitionId: z.number().int(),
  topic: FeedTopicSchema,
  /** Signers who would be told of an event of this topic now (mutes and preferences taken off). */
  signers: z.number().int().nonnegative(),
});
export type NotificationAudience = z.infer<typeof NotificationAudienceSchema>;
