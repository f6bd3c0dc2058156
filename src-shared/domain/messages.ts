/**
 * Texts people read (docs/rules.md#texts-and-messages), written once for server, web app and console. The
 * ones the web app's public pages show, and the text rules' refusals, are written in the files
 * beside this one, so those pages carry only theirs (docs/operations.md#javascript-weight); ERRORS, SUCCESS
 * and VALIDATION here hold them all.
 */
import { SITE_ERRORS, SITE_SUCCESS } from './site-messages.ts';
import { CLOSURE_NOTICE } from './closure-messages.ts';
import { VALIDATION } from './validation-messages.ts';

export { CLOSURE_NOTICE, VALIDATION };

export const ERRORS = {
  ...SITE_ERRORS,
  signLoginRequired: 'Please log in to sign this petition.',
  petitionClosed: 'This petition is closed. No more signatures can be added.',
  alreadySigned: 'You have already signed this petition',
  notSigned: 'You have not signed this petition',
  petitionNotFound: 'Petition not found',
  deleteForbidden: 'You do not have permission to delete petitions.',
  responseForbidden: 'Only Cabinet Ministers and above can manage government responses',
  debateForbidden: 'Only the Leader of the House of Commons and above can manage parliamentary debates',
  staffOnly: 'Only Cabinet Ministers and above can use the staff queues',
  loginRequired: 'You must be signed in to do that',
  createPermission: 'Permission Required: Only British Citizens in the UK Group can create petitions.',
  otherUser: 'You can only act as yourself',
  csrf: 'This request was refused because it did not come from the petitions site',
  versionMismatch: 'This petition was changed by someone else. Review the current version and try again.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed; retry shortly',
  deleteAllConfirmation: 'Type DELETE ALL PETITIONS to confirm',
  noGovernmentResponse: 'This petition has no government response',
  noDebateInfo: 'This petition has no debate information',
  notBanned: 'This user is not banned',
  /** Not a text of the specification: docs/integrity.md#invalidation. */
  signatureInvalidated: 'Your signature on this petition was invalidated by staff, so this account cannot sign it again.',
  integrityAdminOnly: 'Only the System Administrator can review unusual signing and invalidate signatures.',
  statisticsForbidden: 'Only the System Administrator can see the statistics',
  noTermForStatistics: 'There is no parliamentary term to show statistics for yet',
} as const;

/** The minimum account age's refusals (docs/integrity.md#minimum-account-age), for server and clients alike. */
export const ACCOUNT_AGE_TEXT = {
  tooYoung(minimumDays: number, action: 'sign' | 'create', qualifyingDate: string): string {
    const then = action === 'sign' ? 'You can sign' : 'You can create petitions';
    return `${accountAgeRule(minimumDays, action)} ${then} from ${qualifyingDate}.`;
  },
  unknownAge(minimumDays: number, action: 'sign' | 'create'): string {
    return `${accountAgeRule(minimumDays, action)} Sign out and sign in again so that we can check its age.`;
  },
} as const;

function accountAgeRule(minimumDays: number, action: 'sign' | 'create'): string {
  const days = minimumDays === 1 ? '1 day' : `${minimumDays} days`;
  return `Your ROBLOX account must be at least ${days} old to ${action === 'sign' ? 'sign' : 'create'} petitions.`;
}

export const SUCCESS = {
  ...SITE_SUCCESS,
  responseAdded: 'Government response added successfully!',
  debateRemoved: 'Debate information removed successfully!',
  debateCompleted: 'Debate information completion submitted successfully!',
  debateScheduled: 'Debate information scheduling submitted successfully!',
} as const;

export const CONFIRMATIONS = {
  deletePetition: 'Are you sure you want to delete this petition? This action cannot be undone.',
} as const;
