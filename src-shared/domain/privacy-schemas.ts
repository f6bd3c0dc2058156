/** Deleting a member's data (docs/privacy.md#deleting-your-data): the request and what it did. */
import { z } from 'zod';

/** The typed confirmation; the server compares it with ACCOUNT_DELETION_CONFIRMATION. */
export const AccountDeletionBody = z.strictObject({ confirmation: z.string().max(100) });
export type AccountDeletionRequest = z.infer<typeof AccountDeletionBody>;

export const AccountDeletionResultSchema = z.object({
  message: z.string(),
  /** Signatures on petitions still open: removed, and their counts lowered. */
  signaturesRemoved: z.number().int().nonnegative(),
  /** Signatures on closed petitions: kept in the counts, no longer naming the member. */
  signaturesAnonymised: z.number().int().nonnegative(),
  /** Petitions the member created: kept, their creator shown as a deleted member. */
  petitionsKept: z.number().int().nonnegative(),
});
export type AccountDeletionResult = z.infer<typeof AccountDeletionResultSchema>;

/** How long this site keeps what the privacy policy says it keeps, as its operator configured it. */
export const RetentionSchema = z.object({
  /** Months after a petition closes before its signers are anonymised (SIGNER_RETENTION_MONTHS). */
  signerMonths: z.number().int().positive(),
  /** Months after a notification before it is deleted (NOTIFICATION_RETENTION_MONTHS). */
  notificationMonths: z.number().int().positive(),
});
export type Retention = z.infer<typeof RetentionSchema>;
