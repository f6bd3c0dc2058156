/**
 * Every staff action the console can queue offline, as one zod discriminated union. An action is
 * what the staff member asked for, in the API's own request shapes, plus what it was based on
 * (`baseVersion`, the petition version they saw). The outbox stores it as JSON and the sync engine
 * turns it into exactly one backend call (see `src-main/node/sync`).
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

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
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
]);
export type StaffAction = z.infer<typeof StaffActionSchema>;
export type StaffActionInput = z.input<typeof StaffActionSchema>;
export type StaffActionKind = StaffAction['kind'];

/**
 * What an action is about, for ordering and display: actions on the same target are sent one at a
 * time, in the order they were queued; different targets go in parallel.
 */
export interface ActionTarget {
  type: 'petition' | 'term' | 'user' | 'site';
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
  }
}
