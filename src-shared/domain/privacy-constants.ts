/**
 * Privacy (docs/privacy.md): how long signers stay named, and deleting a member's data. Apart from
 * the schemas (privacy-schemas.ts) so the web app's pages can use them without zod.
 */

/** Months after a petition closed before its signers are anonymised (SIGNER_RETENTION_MONTHS); the UK service's period. */
export const DEFAULT_SIGNER_RETENTION_MONTHS = 6;

/** What a member (or the administrator for them) types to confirm deleting their data; the server checks it too. */
export const ACCOUNT_DELETION_CONFIRMATION = 'DELETE';

/** Whether what was typed confirms the deletion (surrounding spaces forgiven), on the server and in both forms. */
export function isDeletionConfirmed(typed: string): boolean {
  return typed.trim() === ACCOUNT_DELETION_CONFIRMATION;
}

/**
 * The refusals of deleting data (not texts of the specification), here rather than in ERRORS so the
 * pages every visitor downloads first do not carry them.
 */
export const PRIVACY_ERRORS = {
  deletionConfirmation: `Type ${ACCOUNT_DELETION_CONFIRMATION} to confirm that your data should be deleted`,
  memberNotFound: 'There is no member with this user id',
} as const;

/** Shown in place of the name of a member who deleted their data: as the creator of their petitions, and on their anonymised signatures. */
export const DELETED_MEMBER_NAME = 'Deleted member';

/**
 * The id an anonymised signature carries instead of its member's: 20 digits. ROBLOX user ids are
 * 64-bit integers (at most 9223372036854775807, 19 digits), so a 20-digit id is never a member's,
 * while it is still a valid `UserId` for every schema, key and avatar path that expects one.
 */
export const ANONYMOUS_USER_ID_LENGTH = 20;

export function isAnonymousUserId(id: string): boolean {
  return id.length === ANONYMOUS_USER_ID_LENGTH && /^[1-9]\d+$/.test(id);
}
