/** The government-response form's logic (§5), free of React so it is unit-tested. */
import type { GovernmentResponseRequest, Petition } from '../../../src-shared/domain/schemas.ts';
import type { FieldErrors } from '../../../src-shared/rules/validation.ts';
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

/**
 * An existing response prefills the form. The office is prefilled only when the same person wrote
 * the response last, so another minister does not sign with someone else's office by accident.
 */
export function initialResponseDraft(
  petition: Pick<Petition, 'governmentResponse' | 'governmentResponseMeta'>,
  user: { id: string; username: string; displayName: string },
): ResponseDraft {
  const meta = petition.governmentResponseMeta;
  const lastBy = meta ? (meta.editedBy ?? meta.addedBy) : null;
  const lastRole = meta ? (meta.editedByRole ?? meta.addedByRole) : null;
  const mine = lastBy !== null && [user.id, user.username, user.displayName].includes(lastBy);
  return {
    text: petition.governmentResponse ?? '',
    role: mine && lastRole && isMinisterialOffice(lastRole) ? lastRole : '',
  };
}

export function buildResponseRequest(draft: ResponseDraft, petitionId: number): GovernmentResponseRequest {
  return { petition_id: petitionId, response_text: draft.text.trim(), added_by_role: draft.role };
}

/** The shared rule applied to the draft (the same check the server makes). */
export function responseErrors(draft: ResponseDraft): ResponseErrors {
  return governmentResponseErrors({ response_text: draft.text, added_by_role: draft.role });
}

export function responseSummary(
  errors: ResponseErrors,
): Array<{ fieldId: string; message: string }> {
  return (['response_text', 'added_by_role'] as const).flatMap((key) => {
    const message = errors[key];
    return message ? [{ fieldId: RESPONSE_FIELD_IDS[key], message }] : [];
  });
}
