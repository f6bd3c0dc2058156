/** The government-response form's logic (docs/rules.md#government-response), free of React so it is unit-tested. */
import type { GovernmentResponseRequest, Petition } from '../../../src-shared/domain/schemas.ts';
import type { FieldErrors } from '../../../src-shared/rules/validation.ts';
import { mayUseOffice, preselectedOffice } from '../../../src-shared/rules/offices.ts';
import type { PermissionSubject } from '../../../src-shared/rules/permissions.ts';
import { governmentResponseErrors, isMinisterialOffice } from '../../../src-shared/rules/validation.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';

export const RESPONSE_FIELD_IDS = {
  response_text: 'gov-response-text',
  added_by_role: 'gov-response-role',
} as const;

export interface ResponseDraft {
  text: string;
  role: string;
}

/** The confirmation before a government response is removed (ConfirmDialog's texts). */
export const RESPONSE_REMOVAL = {
  title: STAFF_TEXTS.responseRemoveTitle,
  message: STAFF_TEXTS.responseRemoveConfirm,
  confirmLabel: STAFF_TEXTS.responseRemove,
};

export type ResponseErrors = FieldErrors<'response_text' | 'added_by_role'>;

/** Who fills the form: enough to recognise their own response and to know which offices they may use. */
export interface Responder extends PermissionSubject {
  id: string;
  username: string;
  displayName: string;
}

/**
 * An existing response prefills the form. The office is prefilled when the same person wrote the
 * response last (so another minister does not sign with someone else's office by accident);
 * otherwise it is the office this member chose last time, else the one their rank defines
 * (src-shared/rules/offices.ts), and never one they may not use.
 */
export function initialResponseDraft(
  petition: Pick<Petition, 'governmentResponse' | 'governmentResponseMeta'>,
  user: Responder,
  lastChosenOffice: string | null = null,
): ResponseDraft {
  const meta = petition.governmentResponseMeta;
  const lastBy = meta ? (meta.editedBy ?? meta.addedBy) : null;
  const lastRole = meta ? (meta.editedByRole ?? meta.addedByRole) : null;
  const mine = lastBy !== null && [user.id, user.username, user.displayName].includes(lastBy);
  const ownRole = mine && lastRole && isMinisterialOffice(lastRole) && mayUseOffice(user, lastRole) ? lastRole : null;
  return {
    text: petition.governmentResponse ?? '',
    role: ownRole ?? preselectedOffice(user, lastChosenOffice),
  };
}

export function buildResponseRequest(draft: ResponseDraft, petitionId: number): GovernmentResponseRequest {
  return { petition_id: petitionId, response_text: draft.text.trim(), added_by_role: draft.role };
}

/** The shared rule applied to the draft (the same check the server makes, the office included). */
export function responseErrors(draft: ResponseDraft, user: PermissionSubject): ResponseErrors {
  return governmentResponseErrors({ response_text: draft.text, added_by_role: draft.role }, user);
}

export function responseSummary(
  errors: ResponseErrors,
): Array<{ fieldId: string; message: string }> {
  return (['response_text', 'added_by_role'] as const).flatMap((key) => {
    const message = errors[key];
    return message ? [{ fieldId: RESPONSE_FIELD_IDS[key], message }] : [];
  });
}
