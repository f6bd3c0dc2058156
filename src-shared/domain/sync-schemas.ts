/**
 * Request and response bodies of the two endpoints the console's sync needs beyond the single-item
 * API: a bulk status override with per-item results, and "what changed in the queues since".
 */
import { z } from 'zod';
import { bodyId, ID_MESSAGES, PetitionSchema, PetitionStatusSchema, wholeNumberText } from './schemas.ts';

export const BULK_STATUS_MAX_ITEMS = 500;
export const QUEUE_CHANGES_DEFAULT_LIMIT = 200;
export const QUEUE_CHANGES_MAX_LIMIT = 1000;

export const BulkStatusItemSchema = z.strictObject({
  petitionId: bodyId(ID_MESSAGES.petition),
  status: PetitionStatusSchema,
  /** The version the administrator saw (If-Match of the single call); absent means "any version". */
  expectedVersion: z.number().int().nonnegative().optional(),
  /** This item's own key (Idempotency-Key of the single call): the same key in a single call or a batch is the same request. */
  idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,255}$/, 'An idempotency key is 1 to 255 visible ASCII characters').optional(),
});
export type BulkStatusItem = z.infer<typeof BulkStatusItemSchema>;

export const BulkStatusBody = z
  .strictObject({ items: z.array(BulkStatusItemSchema).min(1).max(BULK_STATUS_MAX_ITEMS) })
  .superRefine((value, ctx) => {
    const seen = new Set<number>();
    value.items.forEach((item, index) => {
      if (seen.has(item.petitionId)) {
        ctx.addIssue({ code: 'custom', path: ['items', index, 'petitionId'], message: 'Each petition may appear once in a bulk status change' });
      }
      seen.add(item.petitionId);
    });
  });
export type BulkStatusRequest = z.input<typeof BulkStatusBody>;

export const BULK_ITEM_RESULTS = ['applied', 'unchanged', 'conflict', 'not_found', 'forbidden', 'key_reused'] as const;
export type BulkItemResult = (typeof BULK_ITEM_RESULTS)[number];

export const BulkStatusItemResultSchema = z.object({
  petitionId: z.number().int(),
  result: z.enum(BULK_ITEM_RESULTS),
  /** The HTTP status the single call would have answered (200, 404, 403, 412, 422). */
  status: z.number().int(),
  /** The petition after the change (applied, unchanged) or as it stands now (conflict). */
  petition: PetitionSchema.nullable(),
  /** The single call's problem `detail` for refusals. */
  detail: z.string().nullable(),
  /** True when the item's key had been used before and its stored answer is returned. */
  replayed: z.boolean(),
});
export type BulkStatusItemResult = z.infer<typeof BulkStatusItemResultSchema>;

export const BulkStatusResponseSchema = z.object({ results: z.array(BulkStatusItemResultSchema) });
export type BulkStatusResponse = z.infer<typeof BulkStatusResponseSchema>;

export const QueueChangesQuery = z.strictObject({
  since: z.string().max(500).optional(),
  limit: wholeNumberText(1, QUEUE_CHANGES_MAX_LIMIT).optional(),
});

export const QueueChangeSchema = z.object({
  petition: PetitionSchema,
  /** Queue membership by the shared classification rules; false/false means "drop it from the queues". */
  awaitingResponse: z.boolean(),
  awaitingDebate: z.boolean(),
});
export type QueueChange = z.infer<typeof QueueChangeSchema>;

export const QueueChangesSchema = z.object({
  /** Pass back as `since` for the next call. */
  cursor: z.string(),
  /** Without `since`: every petition now in a queue. With it: every petition changed since, in or out of the queues. */
  changes: z.array(QueueChangeSchema),
  /** Petitions deleted since `since`. */
  removed: z.array(z.number().int()),
  /** All petitions were deleted since `since`: start again without it. */
  reset: z.boolean(),
  /** More changes wait: call again with the new cursor at once. */
  more: z.boolean(),
});
export type QueueChanges = z.infer<typeof QueueChangesSchema>;
