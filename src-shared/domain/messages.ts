/** Texts people read (docs/rules.md#texts-and-messages), written once for server, web app and console. */

export const VALIDATION = {
  titleRequired: 'Title is required',
  titleTooShort: 'Title must be at least 5 characters',
  titleTooLong: 'Title must be no more than 150 characters',
  descriptionRequired: 'Description is required',
  descriptionTooShort: 'Description must be at least 30 characters',
  descriptionTooLong: 'Description must be no more than 1000 characters',
  tagsRequired: 'At least 1 tag is required',
  tagsTooMany: 'Maximum 5 tags allowed',
  tagUnknown: 'Tags must come from the fixed list',
  termFieldsRequired: 'Please fill in all fields',
  termDatesOrder: 'The end date must not be before the start date',
  termNameTaken: 'A parliamentary term with this name already exists. Choose another name.',
  responseRequired: 'Please enter a government response',
  responseRoleRequired: 'Please select your government role',
  debateDateRequired: 'Please enter a debate date',
  hansardRequired: 'Please provide the Hansard link for the completed debate',
  hansardHttps: 'The Hansard link must be an https:// address',
  notDebatedReasonRequired: 'Please provide a reason for not debating this petition',
  cancelledReasonRequired: 'Please provide a reason for cancelling the debate',
  assignNeedsTermAndPetition: 'Please select a term and at least one petition',
  statusNeedsPetitionAndStatus: 'Please select a petition and a status',
  banReasonRequired: 'Please give a reason for the ban',
  /** Our own text for the shared text rule (rules/text.ts). */
  textForbiddenCharacters: 'Remove control characters and text-direction overrides from this text',
} as const;

export const ERRORS = {
  dailyLimit: 'Daily Limit Reached: You can only create three petitions per day. Please try again tomorrow.',
  notInSession: 'Cannot create petition: Parliament is not currently in session.',
  banned: 'You are banned from creating petitions',
  signUnauthorized: 'Unauthorized: Only British Citizens can sign petitions',
  signLoginRequired: 'Please log in to sign this petition.',
  petitionClosed: 'This petition is closed. No more signatures can be added.',
  alreadySigned: 'You have already signed this petition',
  notSigned: 'You have not signed this petition',
  petitionNotFound: 'Petition not found',
  termNotFound: 'Parliamentary term not found',
  deleteForbidden: 'You do not have permission to delete petitions.',
  responseForbidden: 'Only Cabinet Ministers and above can manage government responses',
  debateForbidden: 'Only the Leader of the House of Commons and above can manage parliamentary debates',
  adminOnly: 'Access Denied: Only System Administrators can access term management.',
  staffOnly: 'Only Cabinet Ministers and above can use the staff queues',
  loginRequired: 'You must be signed in to do that',
  createPermission: 'Permission Required: Only British Citizens in the UK Group can create petitions.',
  otherUser: 'You can only act as yourself',
  maintenance: 'Site Under Maintenance',
  csrf: 'This request was refused because it did not come from the petitions site',
  versionMismatch: 'This petition was changed by someone else. Review the current version and try again.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed; retry shortly',
  deleteAllConfirmation: 'Type DELETE ALL PETITIONS to confirm',
  noGovernmentResponse: 'This petition has no government response',
  noDebateInfo: 'This petition has no debate information',
  notBanned: 'This user is not banned',
  invalidAuthorizationCode: 'Invalid authorization code. Please try signing in again.',
  authenticationExpired: 'Authentication expired. Please try signing in again.',
  authenticationServerError: 'Server error during authentication. Please try again later.',
  noAuthorizationCode: 'No authorization code received',
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
  petitionDeleted: 'Petition deleted successfully',
  responseAdded: 'Government response added successfully!',
  debateRemoved: 'Debate information removed successfully!',
  debateCompleted: 'Debate information completion submitted successfully!',
  debateScheduled: 'Debate information scheduling submitted successfully!',
} as const;

export const CLOSURE_NOTICE = {
  heading: 'Petition Closed',
  termEnded: 'This petition was automatically closed due to the parliamentary term ending.',
  insufficientSignatures:
    'This petition was automatically closed after 3 weeks due to insufficient signatures (minimum 10 required).',
  noMoreSignatures: 'This petition is closed',
  noMoreSignaturesDetail: 'No more signatures can be added',
} as const;

export const CONFIRMATIONS = {
  deletePetition: 'Are you sure you want to delete this petition? This action cannot be undone.',
} as const;
