/**
 * Request and response bodies of signature integrity (docs/integrity.md): the unusual-signing
 * figures, invalidation criteria, their preview, and the invalidation and restore jobs.
 */
import { z } from 'zod';
import { INVALIDATION_MAX_USER_IDS, MAX_MINIMUM_ACCOUNT_AGE_DAYS } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { bodyId, ID_MESSAGES, idText, PetitionStatusSchema, UserId, wholeNumberText } from './schemas.ts';
import { UNUSUAL_SIGNING_RULES } from '../rules/unusual-signing.ts';
import { normaliseText, textError } from '../rules/text.ts';

export const INTEGRITY_MESSAGES = {
  instant: 'Write the time as an ISO 8601 date and time with its zone, for example 2026-11-21T14:00:00Z',
  windowOrder: 'The end of the time window must be after its start',
  needsCriterion: 'Choose a petition, a time window, an account age or user ids: invalidating every signature of every petition is not offered',
  reasonRequired: 'Give a reason for the invalidation',
  reasonTooLong: 'The reason must be 500 characters or fewer',
  ageRange: `Account age must be a whole number of days from 1 to ${MAX_MINIMUM_ACCOUNT_AGE_DAYS}`,
  userIdsTooMany: `Name at most ${INVALIDATION_MAX_USER_IDS} user ids`,
  job: 'An invalidation id is a positive whole number, written in digits only',
} as const;

/** An instant with its zone, stored as the ISO text the server stamps signatures with (so text order is time order). */
const Instant = z
  .string()
  .max(40)
  .pipe(z.iso.datetime({ offset: true, error: INTEGRITY_MESSAGES.instant }))
  .transform((text) => new Date(text).toISOString());

/**
 * What an invalidation removes: signatures of one petition (or all), made in a time window, by
 * accounts younger than N days when it is requested, by the users named. Criteria combine with "and".
 * Only signatures made before the request are touched (docs/integrity.md#invalidation).
 */
export const InvalidationCriteriaSchema = z
  .strictObject({
    /** null: every petition. */
    petitionId: bodyId(ID_MESSAGES.petition).nullable(),
    /** Signed at or after (inclusive). */
    signedFrom: Instant.nullable().optional(),
    /** Signed before (exclusive). */
    signedTo: Instant.nullable().optional(),
    accountYoungerThanDays: z
      .number(INTEGRITY_MESSAGES.ageRange)
      .int(INTEGRITY_MESSAGES.ageRange)
      .min(1, INTEGRITY_MESSAGES.ageRange)
      .max(MAX_MINIMUM_ACCOUNT_AGE_DAYS, INTEGRITY_MESSAGES.ageRange)
      .nullable()
      .optional(),
    userIds: z.array(UserId).max(INVALIDATION_MAX_USER_IDS, INTEGRITY_MESSAGES.userIdsTooMany).nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.signedFrom && value.signedTo && value.signedFrom >= value.signedTo) {
      ctx.addIssue({ code: 'custom', path: ['signedTo'], message: INTEGRITY_MESSAGES.windowOrder });
    }
    const narrowed =
      value.petitionId !== null || Boolean(value.signedFrom) || Boolean(value.signedTo) || Boolean(value.accountYoungerThanDays) || Boolean(value.userIds?.length);
    if (!narrowed) ctx.addIssue({ code: 'custom', path: ['petitionId'], message: INTEGRITY_MESSAGES.needsCriterion });
  })
  .transform((value) => ({
    petitionId: value.petitionId,
    signedFrom: value.signedFrom ?? null,
    signedTo: value.signedTo ?? null,
    accountYoungerThanDays: value.accountYoungerThanDays ?? null,
    userIds: value.userIds?.length ? [...new Set(value.userIds)].sort() : null,
  }));
export type InvalidationCriteriaInput = z.input<typeof InvalidationCriteriaSchema>;
export type InvalidationCriteria = z.output<typeof InvalidationCriteriaSchema>;

/** The criteria as stored and sent back: already normalised. */
export const StoredCriteriaSchema = z.object({
  petitionId: z.number().int().nullable(),
  signedFrom: z.string().nullable(),
  signedTo: z.string().nullable(),
  accountYoungerThanDays: z.number().int().nullable(),
  userIds: z.array(z.string()).nullable(),
});

/**
 * The preview's criteria as a query string (a read: the console serves it through its read channel
 * when online): `petition` (absent: every petition), `signedFrom`, `signedTo`,
 * `accountYoungerThanDays`, `userIds` (comma-separated).
 */
export const InvalidationPreviewQuery = z
  .strictObject({
    petition: idText(ID_MESSAGES.petition).optional(),
    signedFrom: z.string().max(40).optional(),
    signedTo: z.string().max(40).optional(),
    accountYoungerThanDays: wholeNumberText(1, MAX_MINIMUM_ACCOUNT_AGE_DAYS).optional(),
    userIds: z.string().max(INVALIDATION_MAX_USER_IDS * 21).optional(),
  })
  .transform((query, ctx): InvalidationCriteria => {
    // The same criteria, checked by the same schema as the request's body.
    const parsed = InvalidationCriteriaSchema.safeParse({
      petitionId: query.petition ?? null,
      signedFrom: query.signedFrom || null,
      signedTo: query.signedTo || null,
      accountYoungerThanDays: query.accountYoungerThanDays ?? null,
      userIds: query.userIds ? query.userIds.split(',').map((id) => id.trim()) : null,
    });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });


const Reason = z
  .string(INTEGRITY_MESSAGES.reasonRequired)
  .max(2_000, INTEGRITY_MESSAGES.reasonTooLong)
  .transform((text) => normaliseText(text).trim())
  .refine((text) => text.length > 0, INTEGRITY_MESSAGES.reasonRequired)
  .refine((text) => text.length <= 500, INTEGRITY_MESSAGES.reasonTooLong)
  .refine((text) => textError(text) === null, VALIDATION.textForbiddenCharacters);

export const InvalidationRequestBody = z.strictObject({
  criteria: InvalidationCriteriaSchema,
  reason: Reason,
  /** How many signatures the preview showed, if there was one (recorded in the audit log). */
  previewedMatching: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
});
export type InvalidationRequest = z.input<typeof InvalidationRequestBody>;

export const RestoreRequestBody = z.strictObject({ reason: Reason });
export type RestoreRequest = z.input<typeof RestoreRequestBody>;

export const InvalidationJobId = idText(INTEGRITY_MESSAGES.job);
export const InvalidationJobParams = z.strictObject({ id: InvalidationJobId });

export const SampleSignatureSchema = z.object({
  petitionId: z.number().int(),
  petitionTitle: z.string(),
  userId: z.string(),
  username: z.string(),
  displayName: z.string(),
  signedAt: z.string(),
  accountCreatedAt: z.string().nullable(),
  accountVerified: z.boolean().nullable(),
});
export type SampleSignature = z.infer<typeof SampleSignatureSchema>;

export const PetitionEffectSchema = z.object({
  petitionId: z.number().int(),
  title: z.string(),
  signatures: z.number().int(),
  matching: z.number().int(),
  signaturesAfter: z.number().int(),
  status: PetitionStatusSchema,
  statusAfter: PetitionStatusSchema,
});
export type PetitionEffect = z.infer<typeof PetitionEffectSchema>;

export const InvalidationPreviewSchema = z.object({
  criteria: StoredCriteriaSchema,
  /** When the preview was computed: an invalidation requested later also touches signatures made until then. */
  asOf: z.string(),
  matching: z.number().int(),
  petitions: z.number().int(),
  /** The petitions most affected (up to 20), with their count and status after the invalidation. */
  byPetition: z.array(PetitionEffectSchema),
  /** The newest matching signatures (up to 20). */
  sample: z.array(SampleSignatureSchema),
});
export type InvalidationPreview = z.infer<typeof InvalidationPreviewSchema>;

export const INVALIDATION_JOB_KINDS = ['invalidate', 'restore'] as const;
export const INVALIDATION_JOB_STATES = ['queued', 'running', 'finished', 'cancelled', 'failed'] as const;
export type InvalidationJobKind = (typeof INVALIDATION_JOB_KINDS)[number];
export type InvalidationJobState = (typeof INVALIDATION_JOB_STATES)[number];

export const InvalidationJobSchema = z.object({
  id: z.number().int(),
  kind: z.enum(INVALIDATION_JOB_KINDS),
  state: z.enum(INVALIDATION_JOB_STATES),
  criteria: StoredCriteriaSchema.nullable(),
  /** For a restore: the invalidation it undoes. */
  restoresJobId: z.number().int().nullable(),
  /** For an invalidation: the restore that undid (or is undoing) it. */
  restoredByJobId: z.number().int().nullable(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedByRole: z.string(),
  requestedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Signatures it had to move when it started (0 until then), and how many it has moved. */
  total: z.number().int(),
  processed: z.number().int(),
  /** Petitions whose count it changed. */
  petitionsChanged: z.number().int(),
  cancelRequested: z.boolean(),
  lastError: z.string().nullable(),
});
export type InvalidationJob = z.infer<typeof InvalidationJobSchema>;

export const InvalidationJobListSchema = z.object({ items: z.array(InvalidationJobSchema) });

export const UnusualSigningRuleSchema = z.enum(UNUSUAL_SIGNING_RULES);

export const FirstSignersAgeSchema = z.object({
  /** The threshold (10 or 20). */
  threshold: z.number().int(),
  young: z.number().int(),
});

export const UnusualPetitionSchema = z.object({
  petitionId: z.number().int(),
  title: z.string(),
  status: PetitionStatusSchema,
  signatures: z.number().int(),
  lastHour: z.number().int(),
  /** Signatures per hour before the last hour, over the petition's life. */
  earlierHourlyRate: z.number(),
  youngLastHour: z.number().int(),
  /** The most signatures within any 60 seconds in the last hour. */
  peakMinute: z.number().int(),
  /** For each threshold it has reached: how many of the signatures that reached it came from young accounts. */
  firstSigners: z.array(FirstSignersAgeSchema),
  /** The rules its figures trip now. */
  rules: z.array(UnusualSigningRuleSchema),
  /** Alerts raised today (UK day), each once. */
  alerts: z.array(z.object({ rule: UnusualSigningRuleSchema, raisedAt: z.string() })),
});
export type UnusualPetition = z.infer<typeof UnusualPetitionSchema>;

export const UnusualSigningSchema = z.object({
  asOf: z.string(),
  /** Signatures up to this instant are in the figures (the monitor reads a few seconds behind). */
  countedUpTo: z.string().nullable(),
  settings: z.object({
    burstSignatures: z.number().int(),
    youngAccountDays: z.number().int(),
    minAccountAgeDays: z.number().int(),
  }),
  petitions: z.array(UnusualPetitionSchema),
});
export type UnusualSigning = z.infer<typeof UnusualSigningSchema>;
