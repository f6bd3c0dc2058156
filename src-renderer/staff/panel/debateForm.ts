/**
 * The debate form's logic (docs/rules.md#debate-information), free of React so it is unit-tested: which
 * fields each status shows, the submit label, the request body and the success text.
 */
import { DEFAULT_DEBATE_LOCATION, DEFAULT_DEBATE_STATUS } from '../../../src-shared/domain/constants.ts';
import type { DebateStatus } from '../../../src-shared/domain/constants.ts';
import { SUCCESS } from '../../../src-shared/domain/messages.ts';
import type { DebateInfo, DebateRequest } from '../../../src-shared/domain/schemas.ts';
import { debateSubmissionRole, type DebateSubmitter } from '../../../src-shared/rules/permissions.ts';
import { debateSubmissionErrors } from '../../../src-shared/rules/validation.ts';
import type { FieldErrors } from '../../../src-shared/rules/validation.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';

export interface DebateFormDraft {
  status: DebateStatus;
  date: string;
  location: string;
  hansardUrl: string;
  reason: string;
}

type DebateErrorKey = 'date' | 'location' | 'hansard_url' | 'not_debated_reason';

export type DebateErrors = FieldErrors<DebateErrorKey>;

export const DEBATE_STATUS_LABELS: Record<DebateStatus, string> = {
  scheduled: 'Scheduled',
  debated: 'Debated',
  cancelled: 'Cancelled',
  not_debated: 'Not debated',
};

export const DEBATE_FIELD_IDS = {
  status: 'debate-status',
  date: 'debate-date',
  location: 'debate-location',
  hansard_url: 'debate-hansard-url',
  not_debated_reason: 'debate-reason',
} as const;

export function initialDebateDraft(info: DebateInfo | null | undefined): DebateFormDraft {
  return {
    status: info?.status ?? (DEFAULT_DEBATE_STATUS as DebateStatus),
    date: info?.date ?? '',
    location: info?.location || DEFAULT_DEBATE_LOCATION,
    hansardUrl: info?.hansardLink ?? '',
    reason: info?.notDebatedReason ?? '',
  };
}

export interface DebateFieldSet {
  date: boolean;
  /** The date is required for scheduled and debated; a cancelled debate may name its old date. */
  dateRequired: boolean;
  location: boolean;
  hansard: boolean;
  reason: boolean;
  reasonLabel: string;
}

export function debateFields(status: DebateStatus): DebateFieldSet {
  return {
    date: status !== 'not_debated',
    dateRequired: status === 'scheduled' || status === 'debated',
    location: status === 'scheduled' || status === 'debated',
    hansard: status === 'debated',
    reason: status === 'not_debated' || status === 'cancelled',
    reasonLabel: status === 'cancelled' ? 'Reason for cancelling the debate' : 'Reason for not debating this petition',
  };
}

/** A label per status; 'Record Decision' is ours for not_debated. */
export function debateSubmitLabel(status: DebateStatus): string {
  switch (status) {
    case 'scheduled':
      return 'Schedule Debate';
    case 'debated':
      return 'Record Completion';
    case 'cancelled':
      return 'Cancel Debate';
    case 'not_debated':
      return 'Record Decision';
  }
}

/** The confirmation before a debate record is removed (ConfirmDialog's texts). */
export const DEBATE_REMOVAL = {
  title: STAFF_TEXTS.debateRemoveTitle,
  message: STAFF_TEXTS.debateRemoveConfirm,
  confirmLabel: STAFF_TEXTS.debateRemove,
};

export function debateFormTitle(hasDebateInfo: boolean): string {
  return hasDebateInfo ? 'Update Parliament Debate' : 'Add Parliament Debate';
}

export function debateSuccessText(status: DebateStatus): string {
  switch (status) {
    case 'scheduled':
      return SUCCESS.debateScheduled;
    case 'debated':
      return SUCCESS.debateCompleted;
    case 'cancelled':
      return STAFF_TEXTS.debateCancelledSaved;
    case 'not_debated':
      return STAFF_TEXTS.debateNotDebatedSaved;
  }
}

/** The draft in the shape debateSubmissionErrors reads. */
export function debateValidationInput(draft: DebateFormDraft) {
  return {
    status: draft.status,
    date: debateFields(draft.status).date ? draft.date : '',
    location: debateFields(draft.status).location ? draft.location : '',
    hansard_url: draft.hansardUrl,
    not_debated_reason: draft.reason,
  };
}

/** The shared rule applied to the draft (the same check the server makes). */
export function debateErrors(draft: DebateFormDraft): DebateErrors {
  return debateSubmissionErrors(debateValidationInput(draft));
}

/**
 * The body sent to POST /debate-info. The Hansard link goes only with debated; the reason goes in
 * not_debated_reason for not_debated AND cancelled (our server keeps the cancellation reason there).
 * An empty location becomes 'Westminster Hall'.
 */
export function buildDebateRequest(
  draft: DebateFormDraft,
  petitionId: number,
  user: DebateSubmitter,
): DebateRequest {
  const fields = debateFields(draft.status);
  const date = fields.date ? draft.date.trim() : '';
  return {
    petition_id: petitionId,
    status: draft.status,
    date: date || null,
    location: (fields.location ? draft.location.trim() : '') || DEFAULT_DEBATE_LOCATION,
    hansard_url: draft.status === 'debated' ? draft.hansardUrl.trim() : null,
    not_debated_reason: fields.reason ? draft.reason.trim() : null,
    added_by_role: debateSubmissionRole(user),
  };
}

/** Errors in form order, each pointing at its control, for the error summary. */
export function debateSummary(errors: DebateErrors): Array<{ fieldId: string; message: string }> {
  const order: DebateErrorKey[] = ['date', 'location', 'hansard_url', 'not_debated_reason'];
  return order.flatMap((key) => {
    const message = errors[key];
    return message ? [{ fieldId: DEBATE_FIELD_IDS[key], message }] : [];
  });
}
