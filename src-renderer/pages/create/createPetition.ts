/**
 * Pure pieces of the create form: error mapping of the server's answers (docs/rules.md#creating-a-petition)
 * and the summary list.
 */
import { ApiError, NetworkError } from '../../../src-shared/api/caller.ts';
import { SITE_ERRORS } from '../../../src-shared/domain/site-messages.ts';
import { petitionDraftErrors, type FieldErrors, type PetitionDraft } from '../../../src-shared/rules/validation.ts';
import { CREATE_TEXT } from './createTexts.ts';

export type DraftField = 'title' | 'description' | 'tags';

export const FIELD_IDS: Record<DraftField, string> = {
  title: 'petition-title',
  tags: 'petition-tags',
  description: 'petition-description',
};

export type CreateFailure =
  | { kind: 'fields'; errors: FieldErrors<DraftField> }
  | { kind: 'limit'; message: string }
  | { kind: 'message'; message: string };

/**
 * 403 shows the server detail else the banned text; 429 the daily-limit text; else the detail
 * (docs/rules.md#creating-a-petition).
 */
export function createFailure(error: unknown): CreateFailure {
  if (error instanceof ApiError) {
    if (error.status === 403) return { kind: 'message', message: error.detail || SITE_ERRORS.banned };
    if (error.status === 429) return { kind: 'limit', message: SITE_ERRORS.dailyLimit };
    const fieldErrors: FieldErrors<DraftField> = {};
    for (const e of error.problem?.errors ?? []) {
      if (e.field === 'title' || e.field === 'description' || e.field === 'tags') fieldErrors[e.field] ??= e.message;
    }
    if (Object.keys(fieldErrors).length > 0) return { kind: 'fields', errors: fieldErrors };
    return { kind: 'message', message: error.detail || CREATE_TEXT.failed };
  }
  if (error instanceof NetworkError) return { kind: 'message', message: CREATE_TEXT.failed };
  return { kind: 'message', message: CREATE_TEXT.failed };
}

/** Summary entries in the order of the form. */
export function summaryErrors(errors: FieldErrors<DraftField>): Array<{ fieldId: string; message: string }> {
  return (['title', 'tags', 'description'] as const)
    .filter((f) => errors[f])
    .map((f) => ({ fieldId: FIELD_IDS[f], message: errors[f]! }));
}

/**
 * The errors still true of the draft, for the fields that show one: a field's error goes as soon as
 * the field becomes valid (or changes to its new problem), and no new error appears while typing.
 */
export function revalidateShown(shown: FieldErrors<DraftField>, draft: PetitionDraft): FieldErrors<DraftField> {
  const now = petitionDraftErrors(draft);
  const next: FieldErrors<DraftField> = {};
  for (const field of Object.keys(shown) as DraftField[]) {
    if (now[field]) next[field] = now[field];
  }
  return next;
}
