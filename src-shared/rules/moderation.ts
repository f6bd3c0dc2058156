/**
 * The rules of community safety (docs/moderation.md), written once: the texts members and
 * moderators read, the report form's checks, and what each moderation decision does to a petition
 * in a given state. The server decides with these; the web app and the console offer only the
 * decisions these allow and show the same texts.
 */
import {
  HIDE_REASON_MAX,
  REJECTION_CODE_PATTERN,
  REJECTION_TEXT_MAX,
  REJECTION_TITLE_MAX,
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  type ModerationDecision,
  type ModerationState,
  type ReportReason,
} from '../domain/moderation-constants.ts';
import { VALIDATION } from '../domain/messages.ts';
import { textError } from './text.ts';
import { characterCount, type FieldErrors } from './validation.ts';


export const MODERATION_ERRORS = {
  reportForbidden: 'Only British Citizens can report petitions',
  reportBanned: 'You are banned, so you cannot report petitions',
  reportOwnPetition: 'You cannot report your own petition',
  alreadyReported: 'You have already reported this petition',
  reasonRequired: 'Choose why you are reporting this petition',
  duplicateRequired: 'Choose the petition this one duplicates',
  duplicateSelf: 'A petition cannot duplicate itself',
  duplicateNotFound: 'The petition it duplicates was not found',
  otherDetailsRequired: 'Tell us what is wrong with this petition',
  detailsTooLong: `Keep your report to ${REPORT_DETAILS_MAX} characters`,
  moderationForbidden: 'Only the Leader of the House of Commons and above can moderate petitions',
  hideReasonRequired: 'Please give a reason for hiding this petition',
  hideReasonTooLong: `Keep the reason to ${HIDE_REASON_MAX} characters`,
  rejectionReasonRequired: 'Choose a rejection reason',
  rejectionReasonUnknown: 'This rejection reason does not exist',
  rejectionReasonInUse: 'Rejected petitions give this reason, so it cannot be deleted. Edit it instead.',
  rejectionCodeFormat: 'A code is 2 to 40 lower-case letters, digits or underscores, starting with a letter',
  rejectionTitleRequired: 'Please give the reason a title',
  rejectionTitleTooLong: `Keep the title to ${REJECTION_TITLE_MAX} characters`,
  rejectionTextRequired: 'Please write the text shown to the public',
  rejectionTextTooLong: `Keep the text to ${REJECTION_TEXT_MAX} characters`,
  keepRejected: 'This petition was rejected: restore it instead',
  hideRejected: 'This petition was rejected: restore it before hiding it',
  petitionRejected: 'This petition was rejected',
} as const;

/** Past the daily report limit: the number is the server's (REPORTS_PER_DAY). */
export function reportDailyLimitMessage(limit: number): string {
  return `You can report up to ${limit} petitions a day. Please try again tomorrow.`;
}

export interface ReportDraft {
  reason?: string | null;
  duplicateOf?: number | null;
  details?: string | null;
}

export function isReportReason(value: unknown): value is ReportReason {
  return typeof value === 'string' && (REPORT_REASONS as readonly string[]).includes(value);
}

/** The report dialog and POST /api/petitions/{id}/reports: one message per field. */
export function reportFormErrors(draft: ReportDraft, petitionId?: number): FieldErrors<'reason' | 'duplicateOf' | 'details'> {
  const errors: FieldErrors<'reason' | 'duplicateOf' | 'details'> = {};
  if (!isReportReason(draft.reason)) errors.reason = MODERATION_ERRORS.reasonRequired;
  if (draft.reason === 'duplicate') {
    if (draft.duplicateOf === undefined || draft.duplicateOf === null) errors.duplicateOf = MODERATION_ERRORS.duplicateRequired;
    else if (petitionId !== undefined && draft.duplicateOf === petitionId) errors.duplicateOf = MODERATION_ERRORS.duplicateSelf;
  }
  const details = (draft.details ?? '').trim();
  if (draft.reason === 'other' && !details) errors.details = MODERATION_ERRORS.otherDetailsRequired;
  else if (characterCount(details) > REPORT_DETAILS_MAX) errors.details = MODERATION_ERRORS.detailsTooLong;
  else if (textError(details)) errors.details = VALIDATION.textForbiddenCharacters;
  return errors;
}

/** A moderator's reason for hiding: required, within its limit, and following the text rule. */
export function hideReasonError(reason: string | null | undefined): string | null {
  const value = (reason ?? '').trim();
  if (!value) return MODERATION_ERRORS.hideReasonRequired;
  if (characterCount(value) > HIDE_REASON_MAX) return MODERATION_ERRORS.hideReasonTooLong;
  return textError(value);
}

export interface RejectionReasonDraft {
  title?: string | null;
  publicText?: string | null;
}

export function rejectionCodeError(code: string): string | null {
  return REJECTION_CODE_PATTERN.test(code) ? null : MODERATION_ERRORS.rejectionCodeFormat;
}

export function rejectionReasonErrors(draft: RejectionReasonDraft): FieldErrors<'title' | 'publicText'> {
  const errors: FieldErrors<'title' | 'publicText'> = {};
  const title = (draft.title ?? '').trim();
  const text = (draft.publicText ?? '').trim();
  if (!title) errors.title = MODERATION_ERRORS.rejectionTitleRequired;
  else if (characterCount(title) > REJECTION_TITLE_MAX) errors.title = MODERATION_ERRORS.rejectionTitleTooLong;
  else if (textError(title)) errors.title = VALIDATION.textForbiddenCharacters;
  if (!text) errors.publicText = MODERATION_ERRORS.rejectionTextRequired;
  else if (characterCount(text) > REJECTION_TEXT_MAX) errors.publicText = MODERATION_ERRORS.rejectionTextTooLong;
  else if (textError(text)) errors.publicText = VALIDATION.textForbiddenCharacters;
  return errors;
}

/** Where a petition stands for moderation: visible (null), hidden or rejected, and its open reports. */
export interface ModerationSubject {
  state: ModerationState | null;
  /** Reports not yet settled by a decision. */
  openReports: number;
  /** The rejection reason's code, when rejected. */
  rejectionCode?: string | null;
}

export type DecisionRequest =
  | { decision: 'keep' }
  | { decision: 'hide'; reason: string }
  | { decision: 'reject'; reasonCode: string }
  | { decision: 'restore' };

/**
 * What a decision does to a petition in this state: `apply` it, nothing to do (`unchanged`: the
 * petition is already where the decision would put it), or `refused` with the text to show.
 * docs/moderation.md#decisions has the table.
 */
export type DecisionOutcome = { kind: 'apply' } | { kind: 'unchanged' } | { kind: 'refused'; message: string };

export function decisionOutcome(subject: ModerationSubject, request: DecisionRequest): DecisionOutcome {
  switch (request.decision) {
    case 'keep':
      if (subject.state === 'rejected') return { kind: 'refused', message: MODERATION_ERRORS.keepRejected };
      return subject.state === null && subject.openReports === 0 ? { kind: 'unchanged' } : { kind: 'apply' };
    case 'hide':
      if (subject.state === 'rejected') return { kind: 'refused', message: MODERATION_ERRORS.hideRejected };
      return subject.state === 'hidden' ? { kind: 'unchanged' } : { kind: 'apply' };
    case 'reject':
      return subject.state === 'rejected' && subject.rejectionCode === request.reasonCode ? { kind: 'unchanged' } : { kind: 'apply' };
    case 'restore':
      return subject.state === null ? { kind: 'unchanged' } : { kind: 'apply' };
  }
}

/** The state a petition is in once a decision is applied (null: visible). */
export function stateAfter(decision: ModerationDecision): ModerationState | null {
  switch (decision) {
    case 'keep':
    case 'restore':
      return null;
    case 'hide':
      return 'hidden';
    case 'reject':
      return 'rejected';
  }
}

/** The decisions worth offering for a petition in this state (the others would be refused or change nothing). */
export function availableDecisions(subject: ModerationSubject): ModerationDecision[] {
  const probe: Record<ModerationDecision, DecisionRequest> = {
    keep: { decision: 'keep' },
    hide: { decision: 'hide', reason: '' },
    // Another reason may always be chosen for a rejected petition.
    reject: { decision: 'reject', reasonCode: '' },
    restore: { decision: 'restore' },
  };
  return (Object.keys(probe) as ModerationDecision[]).filter((decision) => decisionOutcome(subject, probe[decision]).kind === 'apply');
}

/** Whether a decision settles the petition's open reports (all but hide, which waits for a final decision). */
export function settlesReports(decision: ModerationDecision): boolean {
  return decision !== 'hide';
}
