/**
 * The constants of petition events and the notification centre (docs/notifications.md), apart from
 * their zod schemas (feed-schemas.ts) so the web app's first download can use them without zod.
 */

/**
 * Every kind of event. The moderation kinds (hidden, rejected, restored) are recorded by the
 * moderation feature once it lands; their audience, topic and texts are decided here already.
 */
export const PETITION_EVENT_KINDS = [
  'response_added',
  'response_edited',
  'debate_scheduled',
  'debate_held',
  'debate_not_debated',
  'debate_cancelled',
  'petition_closed',
  'threshold_reached',
  'status_changed',
  'petition_hidden',
  'petition_rejected',
  'petition_restored',
] as const;
export type PetitionEventKind = (typeof PETITION_EVENT_KINDS)[number];

/** Who reads an event: the creator and every signer, or the creator alone. */
export const EVENT_AUDIENCES = ['signers', 'creator'] as const;
export type EventAudience = (typeof EVENT_AUDIENCES)[number];

/** Why a petition closed, as its signers are told (the petition's own closure reason, or staff). */
export const EVENT_CLOSURE_REASONS = ['three_weeks_insufficient_signatures', 'term_ended', 'staff'] as const;

/** The groups of kinds a member may switch off in their preferences. */
export const FEED_TOPICS = ['responses', 'debates', 'closures', 'milestones', 'status'] as const;
export type FeedTopic = (typeof FEED_TOPICS)[number];

/** How much of a response text an event keeps (the petition page has all of it). */
export const RESPONSE_EXCERPT_MAX = 280;
/** How much of a reason (not debated, moderation) an event keeps. */
export const EVENT_REASON_MAX = 500;

export const FEED_PAGE_SIZE_DEFAULT = 20;
export const FEED_PAGE_SIZE_MAX = 50;

export const MY_PETITION_LISTS = ['created', 'signed'] as const;
export type MyPetitionList = (typeof MY_PETITION_LISTS)[number];
export const MY_PETITIONS_PAGE_SIZE_DEFAULT = 20;
export const MY_PETITIONS_PAGE_SIZE_MAX = 50;

/**
 * How long events (and whether each member read them) are kept before the retention job deletes them:
 * the server's default for NOTIFICATION_RETENTION_MONTHS (the privacy page states the configured value).
 */
export const DEFAULT_NOTIFICATION_RETENTION_MONTHS = 12;
