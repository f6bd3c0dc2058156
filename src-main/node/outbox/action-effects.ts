/**
 * What a queued action looks like before the server has it: a one-line summary for lists, and its
 * effect on a petition as the console shows it offline (the server recomputes the truth on sync).
 */
import { automaticStatus } from '../../../src-shared/rules/classification.ts';
import { debateInfoFrom } from '../../../src-shared/rules/debate-info.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import type { StaffAction } from '../../../src-shared/console/staff-actions.ts';

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
  }
}

/** The petition an action is about, if any. */
export function actionPetitionId(action: StaffAction): number | null {
  return 'petitionId' in action ? action.petitionId : null;
}

/**
 * The petition as it will look once the action is applied, or null when the action deletes it.
 * Only what the console shows is changed; the status follows the shared automatic rule as the
 * server's would, so an offline queue screen moves the petition where the server will.
 */
export function applyToPetition<P extends Petition>(petition: P, action: StaffAction): P | null {
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
    default:
      return petition;
  }
}
