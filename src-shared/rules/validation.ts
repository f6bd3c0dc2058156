/**
 * The text rules of docs/rules.md#text-rules as plain functions: the zod schemas, the forms and the console
 * all call these.
 */
import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  MINISTERIAL_OFFICES,
  TAGS,
  TAGS_MAX,
  TAGS_MIN,
  TITLE_MAX,
  TITLE_MIN,
} from '../domain/constants.ts';
import { VALIDATION } from '../domain/validation-messages.ts';
import { officeRefusal } from './offices.ts';
import type { PermissionSubject } from './permissions.ts';
import { textError } from './text.ts';

/**
 * Roblox user ids are decimal strings (the OpenID `sub`) with one spelling: no leading zero, so
 * `00022` cannot name a second user 22. The UserId schema and the staff forms check this one pattern.
 */
export const USER_ID_PATTERN = /^[1-9]\d{0,19}$/;

export function isUserId(text: string): boolean {
  return USER_ID_PATTERN.test(text);
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Counts user-perceived characters so an emoji is one character, as the n/150 counter shows. */
export function characterCount(text: string): number {
  return [...text].length;
}

export function titleError(title: string | undefined | null): string | null {
  const value = (title ?? '').trim();
  if (!value) return VALIDATION.titleRequired;
  if (textError(value)) return VALIDATION.textForbiddenCharacters;
  if (characterCount(value) < TITLE_MIN) return VALIDATION.titleTooShort;
  if (characterCount(value) > TITLE_MAX) return VALIDATION.titleTooLong;
  return null;
}

export function descriptionError(description: string | undefined | null): string | null {
  const value = (description ?? '').trim();
  if (!value) return VALIDATION.descriptionRequired;
  if (textError(value)) return VALIDATION.textForbiddenCharacters;
  if (characterCount(value) < DESCRIPTION_MIN) return VALIDATION.descriptionTooShort;
  if (characterCount(value) > DESCRIPTION_MAX) return VALIDATION.descriptionTooLong;
  return null;
}

export function isKnownTag(tag: string): boolean {
  return (TAGS as readonly string[]).includes(tag);
}

export function tagsError(tags: readonly string[] | undefined | null): string | null {
  const list = tags ?? [];
  if (list.length < TAGS_MIN) return VALIDATION.tagsRequired;
  if (new Set(list).size > TAGS_MAX) return VALIDATION.tagsTooMany;
  if (!list.every(isKnownTag)) return VALIDATION.tagUnknown;
  return null;
}

/** Chip toggle for the create form: a sixth selection is ignored (docs/rules.md#petition-fields). */
export function toggleTag(selected: readonly string[], tag: string): string[] {
  if (selected.includes(tag)) return selected.filter((t) => t !== tag);
  if (selected.length >= TAGS_MAX || !isKnownTag(tag)) return [...selected];
  return [...selected, tag];
}

export interface PetitionDraft {
  title?: string | null;
  description?: string | null;
  tags?: readonly string[] | null;
}

export function petitionDraftErrors(draft: PetitionDraft): FieldErrors<'title' | 'description' | 'tags'> {
  const errors: FieldErrors<'title' | 'description' | 'tags'> = {};
  const title = titleError(draft.title);
  const description = descriptionError(draft.description);
  const tags = tagsError(draft.tags);
  if (title) errors.title = title;
  if (description) errors.description = description;
  if (tags) errors.tags = tags;
  return errors;
}

export interface GovernmentResponseDraft {
  response_text?: string | null;
  added_by_role?: string | null;
}

export function isMinisterialOffice(role: string): boolean {
  return (MINISTERIAL_OFFICES as readonly string[]).includes(role);
}

/**
 * The response form's rule. With `responder`, also whether they may use the office they chose
 * (rules/offices.ts): the forms pass the signed-in member; the request schema cannot (it does not
 * know who sends it), so the route checks that itself.
 */
export function governmentResponseErrors(
  draft: GovernmentResponseDraft,
  responder?: PermissionSubject | null,
): FieldErrors<'response_text' | 'added_by_role'> {
  const errors: FieldErrors<'response_text' | 'added_by_role'> = {};
  if (!(draft.response_text ?? '').trim()) errors.response_text = VALIDATION.responseRequired;
  else if (textError(draft.response_text)) errors.response_text = VALIDATION.textForbiddenCharacters;
  const role = (draft.added_by_role ?? '').trim();
  if (!role || !isMinisterialOffice(role)) errors.added_by_role = VALIDATION.responseRoleRequired;
  else if (responder !== undefined) {
    const refusal = officeRefusal(responder, role);
    if (refusal) errors.added_by_role = refusal;
  }
  return errors;
}

export interface DebateDraft {
  status?: string | null;
  location?: string | null;
  date?: string | null;
  hansard_url?: string | null;
  not_debated_reason?: string | null;
}

export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && Boolean(url.hostname);
  } catch {
    return false;
  }
}

export function debateSubmissionErrors(
  draft: DebateDraft,
): FieldErrors<'date' | 'location' | 'hansard_url' | 'not_debated_reason'> {
  const errors: FieldErrors<'date' | 'location' | 'hansard_url' | 'not_debated_reason'> = {};
  const status = draft.status;
  if ((status === 'scheduled' || status === 'debated') && !(draft.date ?? '').trim()) {
    errors.date = VALIDATION.debateDateRequired;
  }
  if (status === 'debated') {
    const link = (draft.hansard_url ?? '').trim();
    if (!link) errors.hansard_url = VALIDATION.hansardRequired;
    else if (!isHttpsUrl(link)) errors.hansard_url = VALIDATION.hansardHttps;
  }
  const reason = (draft.not_debated_reason ?? '').trim();
  if (status === 'not_debated' && !reason) errors.not_debated_reason = VALIDATION.notDebatedReasonRequired;
  if (status === 'cancelled' && !reason) errors.not_debated_reason = VALIDATION.cancelledReasonRequired;
  if (textError(draft.location)) errors.location = VALIDATION.textForbiddenCharacters;
  if (!errors.hansard_url && textError(draft.hansard_url)) errors.hansard_url = VALIDATION.textForbiddenCharacters;
  if (!errors.not_debated_reason && textError(draft.not_debated_reason)) errors.not_debated_reason = VALIDATION.textForbiddenCharacters;
  return errors;
}

export interface TermDraft {
  name?: string | null;
  startDate?: string | null;
  endDate?: string | null;
}

/** One message for the whole term form ('Please fill in all fields': docs/rules.md#term-form). */
export function termFormErrors(draft: TermDraft): string | null {
  if (!(draft.name ?? '').trim() || !draft.startDate || !draft.endDate) return VALIDATION.termFieldsRequired;
  if (textError(draft.name)) return VALIDATION.textForbiddenCharacters;
  if (draft.endDate < draft.startDate) return VALIDATION.termDatesOrder;
  return null;
}

/** The ban form and PUT /api/bans/{userId}: a reason is required and follows the text rule. */
export function banReasonError(reason: string | null | undefined): string | null {
  if (!(reason ?? '').trim()) return VALIDATION.banReasonRequired;
  return textError(reason);
}
