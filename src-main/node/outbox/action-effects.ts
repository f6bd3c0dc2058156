/**
 * What a queued action looks like before the server has it: a one-line summary for lists, and its
 * effect on a petition as the console shows it offline (the server recomputes the truth on sync).
 */
import { automaticStatus } from '../../../src-shared/rules/classification.ts';
import { debateInfoFrom } from '../../../src-shared/rules/debate-info.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import type { StaffAction } from '../../../src-shared/console/staff-actions.ts';
import { decisionOutcome, type DecisionRequest } from '../../../src-shared/rules/moderation.ts';

export function summarize(action: StaffAction): string {
  switch (action.kind) {
    case 'response.save':
      return `Government response to petition #${action.petitionId}`;
    case 'response.remove':
      return `Remove the government response to petition #${action.petitionId}`;
    case 'debate.save':
      return `Debate information for petition #${action.petitionId}`;
    case 'debate.remove':
      return `Remove the debate information of petition #${action.petitionId}`;
    case 'petition.setStatus':
      return `Set petition #${action.petitionId} to "${statusLabel(action.status)}"`;
    case 'petition.assignTerm':
      return action.termId === null
        ? `Remove petition #${action.petitionId} from its term`
        : `Assign petition #${action.petitionId} to term #${action.termId}`;
    case 'petition.delete':
      return `Delete petition #${action.petitionId}`;
    case 'term.create':
      return `Create the term "${action.body.name}"`;
    case 'term.update':
      return `Edit term #${action.termId}`;
    case 'term.delete':
      return `Delete term #${action.termId}`;
    case 'ban.add':
      return `Ban user ${action.userId}`;
    case 'ban.remove':
      return `Unban user ${action.userId}`;
    case 'site.maintenance':
      return action.maintenance ? 'Turn maintenance mode on' : 'Turn maintenance mode off';
    case 'moderation.keep':
      return `Keep petition #${action.petitionId} (settle its reports)`;
    case 'moderation.hide':
      return `Hide petition #${action.petitionId}`;
    case 'moderation.reject':
      return `Reject petition #${action.petitionId} (${action.reasonCode})`;
    case 'moderation.restore':
      return `Restore petition #${action.petitionId}`;
    case 'rejectionReason.save':
      return `Save the rejection reason "${action.body.title}"`;
    case 'rejectionReason.delete':
      return `Delete the rejection reason "${action.code}"`;
    case 'signatures.invalidate':
      return action.criteria.petitionId === null ? 'Invalidate signatures on every petition' : `Invalidate signatures of petition #${action.criteria.petitionId}`;
    case 'signatures.cancel':
      return `Cancel invalidation #${action.jobId}`;
    case 'signatures.restore':
      return `Restore the signatures of invalidation #${action.jobId}`;
  }
}

/** The petition an action is about, if any. */
export function actionPetitionId(action: StaffAction): number | null {
  return 'petitionId' in action ? action.petitionId : null;
}

/**
 * The petition as it will look once the action is applied, or null when the action deletes it.
 * Only what the console shows is changed; the status follows the shared automatic rule as the
 * server's would, so an offline queue screen moves the petition where the server will. `at` is
 * when a moderation decision shows as taken (the console's clock; the server records its own).
 */
export function applyToPetition<P extends Petition>(petition: P, action: StaffAction, at: string = new Date().toISOString()): P | null {
  if (actionPetitionId(action) !== petition.id) return petition;
  const withAutomaticStatus = (next: P): P => ({ ...next, status: automaticStatus(next) });
  switch (action.kind) {
    case 'response.save':
      return withAutomaticStatus({ ...petition, governmentResponse: action.body.response_text });
    case 'response.remove':
      return withAutomaticStatus({ ...petition, governmentResponse: null, governmentResponseMeta: null });
    case 'debate.save':
      return withAutomaticStatus({ ...petition, debateInfo: debateInfoFrom(action.body) });
    case 'debate.remove':
      return withAutomaticStatus({ ...petition, debateInfo: null, debateInfoMeta: null });
    case 'petition.setStatus':
      return { ...petition, status: action.status };
    case 'petition.assignTerm':
      return { ...petition, termId: action.termId };
    case 'petition.delete':
      return null;
    case 'moderation.keep':
    case 'moderation.restore':
    case 'moderation.hide':
    case 'moderation.reject':
      return moderated(petition, action, at);
    default:
      return petition;
  }
}

type ModerationAction = Extract<StaffAction, { kind: `moderation.${string}` }>;

/**
 * A decision as the server will take it (docs/moderation.md#decisions, `decisionOutcome`): a
 * decision the petition's state refuses, or one that changes nothing, leaves it as it is.
 */
function moderated<P extends Petition>(petition: P, action: ModerationAction, at: string): P {
  const subject = {
    state: petition.moderation?.state ?? null,
    // Open reports are not part of a petition; one stands for "some", so a keep is never a no-op here.
    openReports: 1,
    rejectionCode: petition.moderation?.reasonCode ?? null,
  };
  const request: DecisionRequest =
    action.kind === 'moderation.hide'
      ? { decision: 'hide', reason: action.reason }
      : action.kind === 'moderation.reject'
        ? { decision: 'reject', reasonCode: action.reasonCode }
        : { decision: action.kind === 'moderation.keep' ? 'keep' : 'restore' };
  if (decisionOutcome(subject, request).kind !== 'apply') return petition;
  switch (request.decision) {
    case 'keep':
    case 'restore': {
      const { moderation: _settled, ...visible } = petition;
      return visible as P;
    }
    case 'hide':
      return { ...petition, moderation: { state: 'hidden', note: request.reason, reasonCode: null, at } };
    case 'reject':
      return { ...petition, moderation: { state: 'rejected', note: null, reasonCode: request.reasonCode, at } };
  }
}
