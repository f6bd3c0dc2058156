/**
 * zod schemas for every entity and every request and response body.
 * Types are inferred from these, never written by hand, so the server, the web app and the
 * console cannot drift apart.
 */
import { z } from 'zod';
import {
  CLOSURE_REASONS,
  DEBATE_STATUSES,
  PAGE_SIZE_MAX,
  PETITION_STATUSES,
  SORT_OPTIONS,
  STATUS_FILTERS,
  TERM_STATUSES,
} from './constants.ts';
import { MODERATION_STATES } from './moderation-constants.ts';
import { VALIDATION } from './messages.ts';
import { normaliseText, textError } from '../rules/text.ts';
import {
  banReasonError,
  debateSubmissionErrors,
  governmentResponseErrors,
  petitionDraftErrors,
  termFormErrors,
  USER_ID_PATTERN,
} from '../rules/validation.ts';

/**
 * Roblox user ids are decimal strings (the OpenID `sub`); never trust them as numbers. Like every id
 * they have one spelling: no leading zero, so `00022` cannot name a second user 22.
 */
export const UserId = z.string().regex(USER_ID_PATTERN, 'A user id is a string of digits without a leading zero');
/**
 * The one spelling of an id: decimal digits, no sign, no leading zero, no whitespace, within the
 * safe-integer range. `0x1f`, ` 29`, `30.0`, `+22`, `00022` or `1\n` are refused, never read as some
 * other id (z.coerce.number() would read all of them).
 */
export const CANONICAL_ID_PATTERN = /^[1-9]\d{0,15}$/;

export function isCanonicalId(text: string): boolean {
  return CANONICAL_ID_PATTERN.test(text) && Number.isSafeInteger(Number(text));
}

/**
 * How a path or query number is documented: an integer in range, which is exactly what a client
 * serialises as canonical digits (the pattern of the text form is dropped from the document).
 */
const wireInteger = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum, pattern: undefined });

/** Canonical digits in, a number out; documented as the digit string it is. */
function canonicalIdString(message: string) {
  return z.string().regex(CANONICAL_ID_PATTERN, message).refine(isCanonicalId, message).transform(Number);
}

/** An id as text (path segment, query parameter); documented as the integer a client serialises. */
export function idText(message: string) {
  return canonicalIdString(message).meta(wireInteger(1, Number.MAX_SAFE_INTEGER));
}

/**
 * An id inside a JSON body: a safe positive integer, or its canonical digits as text from older
 * clients. Nothing is coerced, so `true`, `[1]` or `"0x1f"` are refused instead of becoming an id.
 * Each body gets its own instance (zod's JSON Schema conversion mishandles a shared one).
 */
export function bodyId(message: string) {
  return z.union([z.number().int(message).min(1, message).max(Number.MAX_SAFE_INTEGER, message), canonicalIdString(message)]);
}

/** A count in a query string (page, pageSize, offset, limit): canonical digits too, then its range. */
export function wholeNumberText(min: number, max: number) {
  return z
    .string()
    .regex(/^(?:0|[1-9]\d{0,15})$/, 'Write a whole number in digits only')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .meta(wireInteger(min, max));
}

export const ID_MESSAGES = {
  petition: 'A petition id is a positive whole number, written in digits only',
  term: 'A term id is a positive whole number, written in digits only',
  entry: 'An entry id is a positive whole number, written in digits only',
} as const;

export const PetitionId = idText(ID_MESSAGES.petition);
export const TermId = idText(ID_MESSAGES.term);
export const BodyPetitionId = bodyId(ID_MESSAGES.petition);
export const BodyTermId = bodyId(ID_MESSAGES.term);
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD');
export const IsoDateTime = z.string();

export const PetitionStatusSchema = z.enum(PETITION_STATUSES);
export const DebateStatusSchema = z.enum(DEBATE_STATUSES);
export const TermStatusSchema = z.enum(TERM_STATUSES);
export const ClosureReasonSchema = z.enum(CLOSURE_REASONS);

// ---------- entities ----------

export const UserSchema = z.object({
  id: UserId,
  username: z.string(),
  displayName: z.string(),
  avatar: z.string(),
  rank: z.number().int(),
  userType: z.string(),
  government_rank: z.number().int(),
  citizen_rank: z.number().int(),
  can_sign: z.boolean(),
  /** True when the group service could not be reached at sign-in: the user holds no group rights for now. */
  groups_unavailable: z.boolean().default(false),
});
export type User = z.infer<typeof UserSchema>;

export const SignerSchema = z.object({
  id: UserId,
  username: z.string(),
  displayName: z.string(),
  avatar: z.string(),
  signed_at: IsoDateTime,
});
export type Signer = z.infer<typeof SignerSchema>;

export const ContributionMetaSchema = z.object({
  addedBy: z.string(),
  addedByRole: z.string(),
  addedAt: IsoDateTime,
  editedBy: z.string().nullable(),
  editedByRole: z.string().nullable(),
  editedAt: IsoDateTime.nullable(),
});
export type ContributionMeta = z.infer<typeof ContributionMetaSchema>;

export const DebateInfoSchema = z.object({
  status: DebateStatusSchema,
  date: IsoDate.nullable(),
  location: z.string(),
  hansardLink: z.string().nullable(),
  notDebatedReason: z.string().nullable(),
});
export type DebateInfo = z.infer<typeof DebateInfoSchema>;

/**
 * Why a petition is out of public view (docs/moderation.md#states). Only its creator and moderators
 * ever receive a petition that carries it: the public gets 404, or 410 for a rejection it may read.
 */
export const PetitionModerationSchema = z.object({
  state: z.enum(MODERATION_STATES),
  /** Hidden: the moderator's reason; null when members' reports hid it. Rejected: null. */
  note: z.string().nullable(),
  /** Rejected: the code of the rejection reason (GET /api/rejection-reasons). */
  reasonCode: z.string().nullable(),
  at: IsoDateTime,
});
export type PetitionModeration = z.infer<typeof PetitionModerationSchema>;

/** A rejection as the public may read it (the tombstone), or as the creator reads it. */
export const PublicRejectionSchema = z.object({
  code: z.string(),
  title: z.string(),
  /** The reason's public text. */
  text: z.string(),
  at: IsoDateTime,
});
export type PublicRejection = z.infer<typeof PublicRejectionSchema>;

export const PetitionSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  creator: z.string(),
  creator_id: z.string().nullable(),
  tags: z.array(z.string()),
  category: z.string(),
  termId: z.number().int().nullable(),
  status: PetitionStatusSchema,
  signatures: z.number().int(),
  created: IsoDateTime,
  closureReason: ClosureReasonSchema.nullable(),
  closedAt: IsoDateTime.nullable(),
  governmentResponse: z.string().nullable(),
  governmentResponseMeta: ContributionMetaSchema.nullable(),
  debateInfo: DebateInfoSchema.nullable(),
  debateInfoMeta: ContributionMetaSchema.nullable(),
  /** Bumped by every change except signature counts; staff mutations send it back in If-Match. */
  version: z.number().int(),
  /** Present only while the petition is hidden or rejected (its creator and moderators see it then). */
  moderation: PetitionModerationSchema.optional(),
  /**
   * When the petition first reached 10 (20) signatures or was put in the response (debate) queue;
   * queue ageing counts from here (docs/console-team.md#queue-ageing). Absent from servers before it was recorded.
   */
  responseThresholdReachedAt: IsoDateTime.nullable().optional(),
  debateThresholdReachedAt: IsoDateTime.nullable().optional(),
});
export type Petition = z.infer<typeof PetitionSchema>;

export const PetitionDetailSchema = PetitionSchema.extend({
  /** The first signers, oldest first; more come from the signers endpoint. */
  signers: z.array(SignerSchema),
  signed_by_viewer: z.boolean(),
  /** The signed-in viewer has reported this petition (one report per member: docs/moderation.md#reporting). */
  reported_by_viewer: z.boolean(),
  /** A rejected petition's reason, for its creator and moderators. */
  rejection: PublicRejectionSchema.optional(),
  /**
   * Why the signed-in viewer may not sign it now (their ROBLOX account is too young, or staff
   * invalidated their signature), exactly as the sign call would answer; null otherwise. The page
   * shows it before the member tries (docs/integrity.md).
   */
  viewer_signing_refusal: z.string().nullable(),
});
export type PetitionDetail = z.infer<typeof PetitionDetailSchema>;

export const TermSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  startDate: IsoDate,
  endDate: IsoDate,
  /**
   * The effective status (docs/statuses.md#term-status): the override if one is stored, else what the UK
   * calendar says today.
   */
  status: TermStatusSchema,
  /** The stored status; null means "follow the dates". Requests set it through their `status` field. */
  statusOverride: TermStatusSchema.nullable(),
});
export type Term = z.infer<typeof TermSchema>;

export const BanSchema = z.object({
  user_id: UserId,
  reason: z.string(),
  banned_by: z.string(),
  banned_at: IsoDateTime,
});
export type Ban = z.infer<typeof BanSchema>;

export const BanStatsSchema = z.object({
  total_banned_users: z.number().int(),
  service_available: z.boolean(),
  cache_info: z.object({ source: z.string(), generated_at: IsoDateTime }).nullable(),
  error: z.string().nullable(),
});
export type BanStats = z.infer<typeof BanStatsSchema>;

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  actor_id: z.string(),
  /** The actor's display name as the server knows them now; null for `system` or a user it never saw. */
  actor_name: z.string().nullable(),
  /** The role the actor held when they acted. */
  actor_role: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** Any JSON value, or null when there was nothing before (or after). */
  before: z.unknown(),
  after: z.unknown(),
  /** When the action was applied. */
  at: IsoDateTime,
  /** When the staff member made it, for an action that reached the server later (the console's outbox); else null. */
  made_at: IsoDateTime.nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditLogPageSchema = z.object({
  items: z.array(AuditEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;

/** Everyone who appears in the audit log, for its "who" filter. */
export const AuditLogActorSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  /** The role of their latest entry. */
  role: z.string(),
});
export type AuditLogActor = z.infer<typeof AuditLogActorSchema>;

// ---------- requests ----------

/**
 * Free text as typed, normalised by the shared text rule (rules/text.ts). Fields whose form rule
 * (rules/validation.ts) already applies the text rule use `typedText`; others use `checkedText`.
 */
const typedText = (max: number) => z.string().max(max).transform(normaliseText);
const checkedText = (max: number) =>
  typedText(max).refine((text) => textError(text) === null, VALIDATION.textForbiddenCharacters);
const boundedText = (max: number) => typedText(max * 4);

export const CreatePetitionBody = z
  .strictObject({
    title: boundedText(150),
    description: boundedText(1000),
    tags: z.array(z.string().max(40)).max(50),
    category: checkedText(60).optional(),
    termId: BodyTermId.nullable().optional(),
    /** Legacy fields: accepted only when they name the signed-in user. */
    creator: z.string().max(200).optional(),
    creator_id: z.union([UserId, z.number().int().nonnegative()]).optional(),
  })
  .superRefine((value, ctx) => {
    for (const [field, message] of Object.entries(petitionDraftErrors(value))) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
export type CreatePetitionRequest = z.input<typeof CreatePetitionBody>;

export const SignBody = z
  .strictObject({
    user_id: z.union([UserId, z.number().int().nonnegative()]).optional(),
    username: z.string().max(200).optional(),
  })
  .default({});
export type SignRequest = z.input<typeof SignBody>;

export const PetitionPatchBody = z.strictObject({ termId: BodyTermId.nullable() });
export type PetitionPatchRequest = z.infer<typeof PetitionPatchBody>;

export const StatusBody = z.strictObject({ status: PetitionStatusSchema });
export type StatusRequest = z.infer<typeof StatusBody>;

export const GovernmentResponseBody = z
  .strictObject({
    petition_id: bodyId(ID_MESSAGES.petition).optional(),
    response_text: typedText(20_000),
    added_by: z.string().max(200).optional(),
    added_by_role: z.string().max(200),
  })
  .superRefine((value, ctx) => {
    for (const [field, message] of Object.entries(governmentResponseErrors(value))) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
export type GovernmentResponseRequest = z.input<typeof GovernmentResponseBody>;

export const DebateBody = z
  .strictObject({
    petition_id: bodyId(ID_MESSAGES.petition).optional(),
    status: DebateStatusSchema,
    date: z.union([IsoDate, z.literal('')]).nullable().optional(),
    location: typedText(200).nullable().optional(),
    hansard_url: typedText(2000).nullable().optional(),
    not_debated_reason: typedText(2000).nullable().optional(),
    added_by: z.string().max(200).optional(),
    added_by_role: z.string().max(200).optional(),
  })
  .superRefine((value, ctx) => {
    for (const [field, message] of Object.entries(debateSubmissionErrors(value))) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
export type DebateRequest = z.input<typeof DebateBody>;

export const TermBody = z
  .strictObject({
    name: typedText(200),
    startDate: z.union([IsoDate, z.literal('')]),
    endDate: z.union([IsoDate, z.literal('')]),
    status: TermStatusSchema.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    const message = termFormErrors(value);
    if (message) ctx.addIssue({ code: 'custom', path: ['name'], message });
  });
export type TermRequest = z.input<typeof TermBody>;

export const TermPatchBody = z
  .strictObject({
    name: checkedText(200)
      .pipe(z.string().trim().min(1, VALIDATION.termFieldsRequired))
      .optional(),
    startDate: IsoDate.optional(),
    endDate: IsoDate.optional(),
    status: TermStatusSchema.nullable().optional(),
  });
export type TermPatchRequest = z.infer<typeof TermPatchBody>;

/** What a term edit (or deletion) would do to the term's petitions, before it is made. */
export const TermChangePreviewSchema = z.object({
  /** The term's effective status after the change (stored status first, else the dates). */
  status: TermStatusSchema,
  /** Open petitions the change would close (the term would be completed). */
  petitionsToClose: z.number().int().nonnegative(),
  /** Petitions its earlier completion closed that the change would reopen (the term would be current). */
  petitionsToReopen: z.number().int().nonnegative(),
  /** Every petition of the term: those left without a term if it is deleted. */
  petitionsInTerm: z.number().int().nonnegative(),
});
export type TermChangePreview = z.infer<typeof TermChangePreviewSchema>;

export const BanBody = z.strictObject({
  reason: typedText(1000)
    .superRefine((reason, ctx) => {
      const message = banReasonError(reason);
      if (message) ctx.addIssue({ code: 'custom', message });
    })
    .transform((reason) => reason.trim()),
});
export type BanRequest = z.infer<typeof BanBody>;

export const SiteStatusBody = z.strictObject({ maintenance: z.boolean() });
export type SiteStatusRequest = z.infer<typeof SiteStatusBody>;

export const DeleteAllBody = z.strictObject({ confirmation: z.string().max(100) });
export type DeleteAllRequest = z.infer<typeof DeleteAllBody>;

const statusFilterValues = STATUS_FILTERS.map((f) => f.value) as [string, ...string[]];
const sortValues = SORT_OPTIONS.map((s) => s.value) as [string, ...string[]];

export const PetitionListQuery = z.strictObject({
  search: z.string().max(200).optional(),
  status: z.enum(statusFilterValues).optional(),
  tag: z.string().max(40).optional(),
  term: TermId.optional(),
  sort: z.enum(sortValues).optional(),
  page: wholeNumberText(1, 99_999).optional(),
  pageSize: wholeNumberText(1, PAGE_SIZE_MAX).optional(),
});
export type PetitionListRequest = z.infer<typeof PetitionListQuery>;

export const SignersQuery = z.strictObject({
  offset: wholeNumberText(0, 10_000_000).optional(),
  limit: wholeNumberText(1, PAGE_SIZE_MAX).optional(),
});

export const CallbackBody = z.strictObject({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(512),
});
export type CallbackRequest = z.infer<typeof CallbackBody>;

// ---------- responses ----------

export const PetitionListSchema = z.object({
  items: z.array(PetitionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PetitionList = z.infer<typeof PetitionListSchema>;

export const SignersPageSchema = z.object({ items: z.array(SignerSchema), total: z.number().int() });
export type SignersPage = z.infer<typeof SignersPageSchema>;

export const SignResultSchema = z.object({ signatures: z.number().int(), signed: z.boolean() });
export type SignResult = z.infer<typeof SignResultSchema>;

export const CheckExpiredSchema = z.object({ closed: z.number().int() });
export type CheckExpiredResult = z.infer<typeof CheckExpiredSchema>;

export const HomeStatsSchema = z.object({
  termId: z.number().int().nullable(),
  termName: z.string().nullable(),
  created: z.number().int(),
  responded: z.number().int(),
  debated: z.number().int(),
});
export type HomeStats = z.infer<typeof HomeStatsSchema>;

export const PetitionCountSchema = z.object({
  id: z.number().int(),
  signatures: z.number().int(),
  status: PetitionStatusSchema,
});
export type PetitionCount = z.infer<typeof PetitionCountSchema>;

export const HourlySignaturesSchema = z.object({
  points: z.array(z.object({ hour: IsoDateTime, count: z.number().int() })),
});
export type HourlySignatures = z.infer<typeof HourlySignaturesSchema>;

export const DailyAllowanceSchema = z.object({
  limit: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  resetsAt: IsoDateTime,
  /** A banned user may not create petitions at all, whatever remains today; clients say so before the form. */
  banned: z.boolean(),
  /** The administrator's reason, shown to the user with the ban. */
  banReason: z.string().nullable(),
  /** Why this user may not create yet: their ROBLOX account is younger than the minimum (docs/integrity.md); null when they may. */
  accountAgeRefusal: z.string().nullable(),
});
export type DailyAllowance = z.infer<typeof DailyAllowanceSchema>;

export const SiteStatusSchema = z.object({ maintenance: z.boolean(), inSession: z.boolean() });
export type SiteStatus = z.infer<typeof SiteStatusSchema>;

export const SessionSchema = z.object({ user: UserSchema.nullable() });
export type Session = z.infer<typeof SessionSchema>;

export const LoginResponseSchema = z.object({ auth_url: z.string() });
export const CallbackResponseSchema = z.object({ id: UserId });
export const MessageSchema = z.object({ message: z.string() });
export const DeletedCountSchema = z.object({ deleted: z.number().int() });

export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  petition: PetitionSchema.optional(),
  /** 410 for a rejected petition: the reason the public may read (its tombstone). */
  rejection: PublicRejectionSchema.optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;
