/**
 * Every staff action the console can queue offline, as one zod discriminated union. An action is
 * what the staff member asked for, in the API's own request shapes, plus what it was based on
 * (`baseVersion`, the petition version they saw). Each action is exactly one API call
 * (staff-action-calls.ts): the web app performs it at once; the console's outbox stores it as JSON
 * and its sync engine sends it later.
 */
import { z } from 'zod';
import {
  BanBody,
  DebateBody,
  GovernmentResponseBody,
  PetitionStatusSchema,
  TermBody,
  TermPatchBody,
  UserId,
} from '../domain/schemas.ts';
import { HIDE_REASON_MAX, REJECTION_CODE_PATTERN } from '../domain/moderation-constants.ts';
import { RejectionReasonBody } from '../domain/moderation-schemas.ts';
import { MODERATION_ERRORS, hideReasonError } from '../rules/moderation.ts';
import { InvalidationCriteriaSchema, InvalidationRequestBody, RestoreRequestBody } from '../domain/integrity-schemas.ts';

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const RejectionCode = z.string().regex(REJECTION_CODE_PATTERN, MODERATION_ERRORS.rejectionCodeFormat);
const HideReason = z.string().max(HIDE_REASON_MAX * 4).refine((reason) => hideReasonError(reason) === null, MODERATION_ERRORS.hideReasonRequired);
const Version = z.number().int().nonnegative();

/** Actions on one petition carry the version they were based on (sent as If-Match). */
const onPetition = <K extends string, P extends z.ZodRawShape>(kind: K, payload: P) =>
  z.strictObject({ kind: z.literal(kind), petitionId: Id, baseVersion: Version, ...payload });

export const StaffActionSchema = z.discriminatedUnion('kind', [
  onPetition('response.save', { body: GovernmentResponseBody }),
  onPetition('response.remove', {}),
  onPetition('debate.save', { body: DebateBody }),
  onPetition('debate.remove', {}),
  onPetition('petition.setStatus', { status: PetitionStatusSchema }),
  onPetition('petition.assignTerm', { termId: Id.nullable() }),
  onPetition('petition.delete', {}),
  z.strictObject({ kind: z.literal('term.create'), body: TermBody }),
  z.strictObject({ kind: z.literal('term.update'), termId: Id, body: TermPatchBody }),
  z.strictObject({ kind: z.literal('term.delete'), termId: Id }),
  z.strictObject({ kind: z.literal('ban.add'), userId: UserId, body: BanBody }),
  z.strictObject({ kind: z.literal('ban.remove'), userId: UserId }),
  z.strictObject({ kind: z.literal('site.maintenance'), maintenance: z.boolean() }),
  // Community safety (docs/moderation.md#decisions): one kind per decision, each the body of POST /api/petitions/{id}/moderation.
  onPetition('moderation.keep', {}),
  onPetition('moderation.hide', { reason: HideReason }),
  onPetition('moderation.reject', { reasonCode: RejectionCode }),
  onPetition('moderation.restore', {}),
  z.strictObject({ kind: z.literal('rejectionReason.save'), code: RejectionCode, body: RejectionReasonBody }),
  z.strictObject({ kind: z.literal('rejectionReason.delete'), code: RejectionCode }),
  // Signature integrity (docs/integrity.md#invalidation): the request is queued like any write; its
  // preview needs the server, so a console offline queues it without one.
  z.strictObject({
    kind: z.literal('signatures.invalidate'),
    criteria: InvalidationCriteriaSchema,
    reason: InvalidationRequestBody.shape.reason,
    previewedMatching: InvalidationRequestBody.shape.previewedMatching,
  }),
  z.strictObject({ kind: z.literal('signatures.cancel'), jobId: Id }),
  z.strictObject({ kind: z.literal('signatures.restore'), jobId: Id, reason: RestoreRequestBody.shape.reason }),
]);
export type StaffAction = z.infer<typeof StaffActionSchema>;
export type StaffActionInput = z.input<typeof StaffActionSchema>;
export type StaffActionKind = StaffAction['kind'];

/**
 * What an action is about, for ordering and display: actions on the same target are sent one at a
 * time, in the order they were queued; different targets go in parallel.
 */
export interface ActionTarget {
  type: 'petition' | 'term' | 'user' | 'site' | 'rejectionReason' | 'invalidation';
  id: string;
}

export function actionTarget(action: StaffAction): ActionTarget {
  if ('petitionId' in action) return { type: 'petition', id: String(action.petitionId) };
  switch (action.kind) {
    case 'term.create':
      return { type: 'term', id: 'new' };
    case 'term.update':
    case 'term.delete':
      return { type: 'term', id: String(action.termId) };
    case 'ban.add':
    case 'ban.remove':
      return { type: 'user', id: action.userId };
    case 'site.maintenance':
      return { type: 'site', id: 'maintenance' };
    case 'rejectionReason.save':
    case 'rejectionReason.delete':
      return { type: 'rejectionReason', id: action.code };
    case 'signatures.invalidate':
      return { type: 'invalidation', id: 'new' };
    case 'signatures.cancel':
    case 'signatures.restore':
      return { type: 'invalidation', id: String(action.jobId) };
  }
}
