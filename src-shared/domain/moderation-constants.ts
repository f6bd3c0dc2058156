/**
 * Community safety (docs/moderation.md): members' reports, the moderation states a petition can be
 * in, the decisions moderators take, and the limits of each. The server enforces them; the web app
 * and the console read the same values.
 */

/** Why a member reports a petition: the report dialog's radio buttons, in this order. */
export const REPORT_REASONS = ['offensive', 'personal_information', 'spam', 'duplicate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  offensive: 'Offensive or abusive',
  personal_information: 'Names or shows personal information',
  spam: 'Spam or advertising',
  duplicate: 'Duplicate of another petition',
  other: 'Other',
};

/** A report's own words (required for "other", optional otherwise). */
export const REPORT_DETAILS_MAX = 1000;

/**
 * Distinct open reports that hide a petition until moderators review it (Decidim's default is 3),
 * and reports one member may send per UK day. The server's REPORTS_TO_HIDE and REPORTS_PER_DAY
 * override them (docs/moderation.md#thresholds).
 */
export const REPORTS_TO_HIDE_DEFAULT = 3;
export const REPORTS_PER_DAY_DEFAULT = 10;

/**
 * A petition out of public view. Absent (null) means visible; `hidden` waits for a moderator's
 * decision (by members' reports or by a moderator); `rejected` carries a rejection reason.
 */
export const MODERATION_STATES = ['hidden', 'rejected'] as const;
export type ModerationState = (typeof MODERATION_STATES)[number];

/** What a moderator decides about a petition (docs/moderation.md#decisions). */
export const MODERATION_DECISIONS = ['keep', 'hide', 'reject', 'restore'] as const;
export type ModerationDecision = (typeof MODERATION_DECISIONS)[number];

export const MODERATION_DECISION_LABELS: Readonly<Record<ModerationDecision, string>> = {
  keep: 'Keep',
  hide: 'Hide',
  reject: 'Reject',
  restore: 'Restore',
};

/** A moderator's reason for hiding, shown to the creator. */
export const HIDE_REASON_MAX = 1000;

/** Rejection reasons the administrator edits: a stable code, a title and the text shown publicly. */
export const REJECTION_CODE_PATTERN = /^[a-z][a-z0-9_]{1,39}$/;
export const REJECTION_TITLE_MAX = 120;
export const REJECTION_TEXT_MAX = 2000;

/**
 * The moderation queue's name (MODERATION_TEXTS.queueTitle). A value of its own beside the constants, so the
 * console's navigation names the queue without carrying every moderation text (docs/operations.md#javascript-weight).
 */
export const MODERATION_QUEUE_TITLE = 'Moderation';

/** The moderation queue: which petitions it shows. */
export const MODERATION_QUEUE_VIEWS = ['review', 'rejected'] as const;
export type ModerationQueueView = (typeof MODERATION_QUEUE_VIEWS)[number];
export const MODERATION_QUEUE_PAGE_SIZE = 20;
export const MODERATION_QUEUE_PAGE_MAX = 50;
/** How much of each case the queue carries: its newest reports, the creator's other petitions, past moderation. */
export const MODERATION_CASE_REPORTS_MAX = 50;
export const MODERATION_CASE_OTHER_PETITIONS_MAX = 10;
export const MODERATION_CASE_HISTORY_MAX = 20;
/** Items in one bulk moderation call. */
export const MODERATION_BULK_MAX_ITEMS = 100;

/** Similar petitions on the create page: how many, and how long after the last keystroke to ask. */
export const SIMILAR_PETITIONS_MAX = 5;
export const SIMILAR_PETITIONS_DEBOUNCE_MS = 400;
/** Title text the similar-petitions call accepts (the title limit, with room for pasted text). */
export const SIMILAR_TITLE_MAX = 600;
