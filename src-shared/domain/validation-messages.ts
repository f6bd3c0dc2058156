/**
 * The refusals of the text rules (src-shared/rules/validation.ts, text.ts): the forms that check them import
 * only these; messages.ts re-exports them with every other text (docs/operations.md#javascript-weight).
 */
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
