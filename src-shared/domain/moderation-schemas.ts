/**
 * Request and response bodies of community safety (docs/moderation.md): reporting a petition, the
 * moderation queue and its decisions (one and in bulk), the rejection reasons, and similar
 * petitions for the create page.
 */
import { z } from 'zod';
import {
  MODERATION_BULK_MAX_ITEMS,
  MODERATION_DECISIONS,
  MODERATION_QUEUE_PAGE_MAX,
  MODERATION_QUEUE_VIEWS,
  MODERATION_STATES,
  REJECTION_CODE_PATTERN,
  REPORT_REASONS,
  SIMILAR_TITLE_MAX,
} from './moderation-constants.ts';
import { MODERATION_ERRORS, hideReasonError, rejectionReasonErrors, reportFormErrors } from '../rules/moderation.ts';
import { normaliseText } from '../rules/text.ts';
import {
  ID_MESSAGES,
  IsoDateTime,
  PetitionSchema,
  PetitionStatusSchema,
  PublicRejectionSchema,
  UserId,
  bodyId,
  wholeNumberText,
} from './schemas.ts';

/** Free text as typed (normalised by the shared text rule); its own rule gives the real limit. */
const typedText = (max: number) => z.string().max(max * 4).transform(normaliseText);

export const ReportReasonSchema = z.enum(REPORT_REASONS);

// ---------- reporting ----------

export const ReportBody = z
  .strictObject({
    reason: ReportReasonSchema,
    /** Required when the reason is `duplicate`: the petition this one repeats. */
    duplicateOf: bodyId(ID_MESSAGES.petition).nullable().optional(),
    /** Required when the reason is `other`. */
    details: typedText(1000).nullable().optional(),
  })
  .superRefine((value, ctx) => {
    for (const [field, message] of Object.entries(reportFormErrors(value))) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
export type ReportRequest = z.input<typeof ReportBody>;

export const ReportReceiptSchema = z.object({
  petitionId: z.number().int(),
  reason: ReportReasonSchema,
  reportedAt: IsoDateTime,
});
export type ReportReceipt = z.infer<typeof ReportReceiptSchema>;

// ---------- decisions ----------

/** A custom check rather than `.regex`, so the 400 carries the rule's own sentence. */
const RejectionCode = z
  .string()
  .max(40, MODERATION_ERRORS.rejectionCodeFormat)
  .refine((code) => REJECTION_CODE_PATTERN.test(code), MODERATION_ERRORS.rejectionCodeFormat)
  .meta({ pattern: REJECTION_CODE_PATTERN.source });

/** One decision about one petition: the body of POST /api/petitions/{id}/moderation. */
export const ModerationDecisionBody = z.discriminatedUnion('decision', [
  z.strictObject({ decision: z.literal('keep') }),
  z.strictObject({
    decision: z.literal('hide'),
    reason: typedText(1000).superRefine((reason, ctx) => {
      const message = hideReasonError(reason);
      if (message) ctx.addIssue({ code: 'custom', message });
    }).transform((reason) => reason.trim()),
  }),
  z.strictObject({ decision: z.literal('reject'), reasonCode: RejectionCode }),
  z.strictObject({ decision: z.literal('restore') }),
]);
export type ModerationDecisionRequest = z.input<typeof ModerationDecisionBody>;
export type ModerationDecisionParsed = z.output<typeof ModerationDecisionBody>;

const IdempotencyKeyText = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'An idempotency key is 1 to 255 visible ASCII characters');

export const ModerationBulkItemSchema = z.strictObject({
  petitionId: bodyId(ID_MESSAGES.petition),
  /** Exactly the single call's body. */
  action: ModerationDecisionBody,
  /** The version the moderator saw (If-Match of the single call); absent means "any version". */
  expectedVersion: z.number().int().nonnegative().optional(),
  /** This item's own key (Idempotency-Key of the single call): the same key alone or in a batch is one request. */
  idempotencyKey: IdempotencyKeyText.optional(),
});
export type ModerationBulkItem = z.output<typeof ModerationBulkItemSchema>;

export const ModerationBulkBody = z
  .strictObject({ items: z.array(ModerationBulkItemSchema).min(1).max(MODERATION_BULK_MAX_ITEMS) })
  .superRefine((value, ctx) => {
    const seen = new Set<number>();
    value.items.forEach((item, index) => {
      if (seen.has(item.petitionId)) {
        ctx.addIssue({ code: 'custom', path: ['items', index, 'petitionId'], message: 'Each petition may appear once in a bulk moderation call' });
      }
      seen.add(item.petitionId);
    });
  });
export type ModerationBulkRequest = z.input<typeof ModerationBulkBody>;

export const MODERATION_BULK_RESULTS = ['applied', 'unchanged', 'conflict', 'refused', 'not_found', 'forbidden', 'key_reused'] as const;

export const ModerationBulkItemResultSchema = z.object({
  petitionId: z.number().int(),
  result: z.enum(MODERATION_BULK_RESULTS),
  /** The HTTP status the single call would have answered (200, 400, 403, 404, 409, 412, 422). */
  status: z.number().int(),
  /** The petition after the decision (applied, unchanged) or as it stands now (conflict, refused). */
  petition: PetitionSchema.nullable(),
  /** The single call's problem `detail` for refusals. */
  detail: z.string().nullable(),
  /** True when the item's key had been used before and its stored answer is returned. */
  replayed: z.boolean(),
});
export type ModerationBulkItemResult = z.infer<typeof ModerationBulkItemResultSchema>;

export const ModerationBulkResponseSchema = z.object({ results: z.array(ModerationBulkItemResultSchema) });
export type ModerationBulkResponse = z.infer<typeof ModerationBulkResponseSchema>;

// ---------- the queue ----------

export const ModerationQueueQuery = z.strictObject({
  /** `review` (default): reported and hidden petitions, most open reports first. `rejected`: newest rejection first. */
  view: z.enum(MODERATION_QUEUE_VIEWS).optional(),
  page: wholeNumberText(1, 99_999).optional(),
  pageSize: wholeNumberText(1, MODERATION_QUEUE_PAGE_MAX).optional(),
});
export type ModerationQueueRequest = z.input<typeof ModerationQueueQuery>;

export const ModerationReportSchema = z.object({
  id: z.number().int(),
  reason: ReportReasonSchema,
  /** For duplicates: the petition named, with its title when it still exists. */
  duplicateOf: z.object({ id: z.number().int(), title: z.string().nullable() }).nullable(),
  details: z.string().nullable(),
  reporter: z.object({ id: UserId, name: z.string() }),
  reportedAt: IsoDateTime,
  /** False once a decision settled it (kept, rejected or restored). */
  open: z.boolean(),
});
export type ModerationReport = z.infer<typeof ModerationReportSchema>;

export const ModerationHistoryEntrySchema = z.object({
  id: z.number().int(),
  petitionId: z.number().int(),
  petitionTitle: z.string(),
  /** hidden_by_reports, or the decision: keep, hide, reject, restore. */
  action: z.enum(['hidden_by_reports', ...MODERATION_DECISIONS]),
  reasonCode: z.string().nullable(),
  note: z.string().nullable(),
  /** Null when members' reports hid the petition. */
  actor: z.object({ id: z.string(), name: z.string(), role: z.string() }).nullable(),
  at: IsoDateTime,
});
export type ModerationHistoryEntry = z.infer<typeof ModerationHistoryEntrySchema>;

export const CreatorPetitionSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  status: PetitionStatusSchema,
  signatures: z.number().int(),
  created: IsoDateTime,
  moderationState: z.enum(MODERATION_STATES).nullable(),
});

/** One petition as a moderator reviews it: its reports, its creator, their other petitions and past moderation. */
export const ModerationCaseSchema = z.object({
  petition: PetitionSchema,
  openReports: z.number().int(),
  /** Every report, newest first (the newest 50). */
  reports: z.array(ModerationReportSchema),
  totalReports: z.number().int(),
  /** The rejection reason in force, when rejected. */
  rejection: PublicRejectionSchema.extend({ hidden: z.boolean() }).nullable(),
  creator: z.object({
    id: z.string().nullable(),
    name: z.string(),
    banned: z.boolean(),
    banReason: z.string().nullable(),
  }),
  /** The creator's other petitions, newest first (up to 10). */
  creatorPetitions: z.array(CreatorPetitionSchema),
  /** Moderation of this petition and the creator's others, newest first (up to 20). */
  history: z.array(ModerationHistoryEntrySchema),
});
export type ModerationCase = z.infer<typeof ModerationCaseSchema>;

export const ModerationQueueSchema = z.object({
  items: z.array(ModerationCaseSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** For navigation badges: petitions with open reports that are still visible, hidden ones, rejected ones. */
  counts: z.object({ reported: z.number().int(), hidden: z.number().int(), rejected: z.number().int() }),
});
export type ModerationQueue = z.infer<typeof ModerationQueueSchema>;

// ---------- rejection reasons ----------

export const RejectionReasonSchema = z.object({
  code: z.string(),
  title: z.string(),
  publicText: z.string(),
  /** A hidden reason keeps the petition out of everything: 404 to the public, no tombstone. */
  hidden: z.boolean(),
  /** How many petitions are rejected with it now. */
  inUse: z.number().int(),
});
export type RejectionReason = z.infer<typeof RejectionReasonSchema>;

export const RejectionReasonParams = z.strictObject({ code: RejectionCode });

export const RejectionReasonBody = z
  .strictObject({
    title: typedText(120),
    publicText: typedText(2000),
    hidden: z.boolean(),
  })
  .superRefine((value, ctx) => {
    for (const [field, message] of Object.entries(rejectionReasonErrors(value))) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  })
  .transform((value) => ({ ...value, title: value.title.trim(), publicText: value.publicText.trim() }));
export type RejectionReasonRequest = z.input<typeof RejectionReasonBody>;

// ---------- similar petitions ----------

export const SimilarPetitionsQuery = z.strictObject({ title: z.string().max(SIMILAR_TITLE_MAX) });

export const SimilarPetitionSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  signatures: z.number().int(),
  status: PetitionStatusSchema,
  created: IsoDateTime,
});
export type SimilarPetition = z.infer<typeof SimilarPetitionSchema>;

export const SimilarPetitionsSchema = z.object({ items: z.array(SimilarPetitionSchema) });
export type SimilarPetitionList = z.infer<typeof SimilarPetitionsSchema>;
