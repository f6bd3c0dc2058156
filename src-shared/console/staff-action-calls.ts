/**
 * Every staff action as the one API call that performs it. The web app's staff screens perform an
 * action at once through it; the console queues the same action in its outbox and its sync engine
 * sends it through it later, with the row's Idempotency-Key. An action on a petition sends the
 * version it was based on as If-Match, so a stale one is refused (412) instead of overwriting.
 *
 * Types only from the client and the action schema: the web app's bundle carries no zod for this.
 */
import type { ApiClient, StaffWriteOptions } from '../api/client.ts';
import type { StaffActionInput, StaffActionKind } from './staff-actions.ts';

/** The action of one kind (for a literal kind, exactly that member of the union). */
export type StaffActionOf<K extends StaffActionKind> = StaffActionInput & { kind: K };

type Call<K extends StaffActionKind> = (client: ApiClient, action: StaffActionOf<K>, write: StaffWriteOptions) => Promise<unknown>;

const onPetition = (action: { baseVersion: number }, write: StaffWriteOptions): StaffWriteOptions => ({
  ...write,
  ifMatch: action.baseVersion,
});

const CALLS = {
  'response.save': (client, a, write) => client.saveGovernmentResponse(a.petitionId, a.body, onPetition(a, write)),
  'response.remove': (client, a, write) => client.removeGovernmentResponse(a.petitionId, onPetition(a, write)),
  'debate.save': (client, a, write) => client.saveDebateInfo(a.petitionId, a.body, onPetition(a, write)),
  'debate.remove': (client, a, write) => client.removeDebateInfo(a.petitionId, onPetition(a, write)),
  'petition.setStatus': (client, a, write) => client.setPetitionStatus(a.petitionId, a.status, onPetition(a, write)),
  'petition.assignTerm': (client, a, write) => client.assignPetitionTerm(a.petitionId, a.termId, onPetition(a, write)),
  'petition.delete': (client, a, write) => client.deletePetition(a.petitionId, onPetition(a, write)),
  'term.create': (client, a, write) => client.createTerm(a.body, write),
  'term.update': (client, a, write) => client.updateTerm(a.termId, a.body, write),
  'term.delete': (client, a, write) => client.deleteTerm(a.termId, write),
  'ban.add': (client, a, write) => client.banUser(a.userId, a.body.reason, write),
  'ban.remove': (client, a, write) => client.unbanUser(a.userId, write),
  'site.maintenance': (client, a, write) => client.setMaintenance(a.maintenance, write),
  'moderation.keep': (client, a, write) => client.moderatePetition(a.petitionId, { decision: 'keep' }, onPetition(a, write)),
  'moderation.hide': (client, a, write) => client.moderatePetition(a.petitionId, { decision: 'hide', reason: a.reason }, onPetition(a, write)),
  'moderation.reject': (client, a, write) =>
    client.moderatePetition(a.petitionId, { decision: 'reject', reasonCode: a.reasonCode }, onPetition(a, write)),
  'moderation.restore': (client, a, write) => client.moderatePetition(a.petitionId, { decision: 'restore' }, onPetition(a, write)),
  'rejectionReason.save': (client, a, write) => client.saveRejectionReason(a.code, a.body, write),
  'rejectionReason.delete': (client, a, write) => client.deleteRejectionReason(a.code, write),
  'signatures.invalidate': (client, a, write) =>
    client.requestInvalidation({ criteria: a.criteria, reason: a.reason, previewedMatching: a.previewedMatching ?? null }, write),
  'signatures.cancel': (client, a, write) => client.cancelInvalidation(a.jobId, write),
  'signatures.restore': (client, a, write) => client.restoreInvalidation(a.jobId, { reason: a.reason }, write),
} satisfies { [K in StaffActionKind]: Call<K> };

/** What the API answers when an action of this kind is applied (the saved petition, the term…). */
export type StaffActionResult<K extends StaffActionKind> = Awaited<ReturnType<(typeof CALLS)[K]>>;

/**
 * Performs the action with its one API call. `idempotencyKey` makes a resent action apply at most
 * once and `madeAt` tells the server when it was made (the console's outbox passes its row's key
 * and time; the web sends each write once, as it is made, and passes neither).
 */
export function performStaffAction<K extends StaffActionKind>(
  client: ApiClient,
  action: StaffActionOf<K>,
  idempotencyKey?: string,
  madeAt?: string,
): Promise<StaffActionResult<K>> {
  // The lookup by the action's own kind is the call for that kind; TypeScript cannot follow the
  // correlation through the union, hence the one cast.
  const call = CALLS[action.kind as K] as unknown as Call<K>;
  const write: StaffWriteOptions = {};
  if (idempotencyKey !== undefined) write.idempotencyKey = idempotencyKey;
  if (madeAt !== undefined) write.madeAt = madeAt;
  return call(client, action, write) as Promise<StaffActionResult<K>>;
}
