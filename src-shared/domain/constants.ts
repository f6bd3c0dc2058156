/** Business constants (docs/rules.md#limits). Every layer reads limits from here. */

export * from './core-constants.ts';

export const TITLE_MIN = 5;
export const TITLE_MAX = 150;
export const DESCRIPTION_MIN = 30;
export const DESCRIPTION_MAX = 1000;
export const TAGS_MIN = 1;
export const TAGS_MAX = 5;

export const DAILY_PETITION_LIMIT = 3;
export const INSUFFICIENT_SIGNATURES_CLOSE_DAYS = 21;

export const SIGNERS_PREVIEW_COUNT = 10;
export const POPULAR_PETITIONS_COUNT = 5;
export const LIVE_TICK_MS = 1_000;
/** A comment line this often keeps proxies from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 15_000;
export const CREATE_REDIRECT_DELAY_MS = 2_000;

export const DEFAULT_CATEGORY = 'General';
export const DEFAULT_DEBATE_LOCATION = 'Westminster Hall';
export const DEFAULT_DEBATE_STATUS = 'scheduled';

/**
 * Signature integrity (docs/integrity.md). The minimum account age is a server setting
 * (MIN_ACCOUNT_AGE_DAYS, 0 = off) up to this many days; the server tells clients the value in force.
 */
export const MAX_MINIMUM_ACCOUNT_AGE_DAYS = 3_650;
/** An account younger than this when it signed is a "young" account in the unusual-signing figures. */
export const YOUNG_ACCOUNT_DAYS = 30;
/** Signatures on one petition within one minute that count as a burst (INTEGRITY_BURST_SIGNATURES). */
export const DEFAULT_BURST_SIGNATURES = 10;
/** A petition's last hour is a surge from this many signatures and this many times its earlier hourly rate. */
export const SURGE_MIN_SIGNATURES = 10;
export const SURGE_FACTOR = 5;
/** The young share of a petition's last hour trips its rule from this many signatures and this share. */
export const YOUNG_SHARE_MIN_SIGNATURES = 5;
export const YOUNG_SHARE_ALERT = 0.5;
/** How often the staff screens ask for the unusual-signing figures again. */
export const UNUSUAL_SIGNING_REFRESH_MS = 5_000;
/** Signatures one invalidation preview shows as its sample. */
export const INVALIDATION_SAMPLE_SIZE = 20;
/** User ids one invalidation may name. */
export const INVALIDATION_MAX_USER_IDS = 500;

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const ADMIN_DESCRIPTION_PREVIEW = 150;

export const TAGS = [
  'Budget',
  'Business',
  'Civil Service',
  'Defence',
  'Democracy',
  'Foreign Affairs',
  'Government',
  'Intelligence',
  'Justice',
  'Laws',
  'Parliament',
  'Public Services',
  'Rights',
  'Royal Family',
] as const;
export type Tag = (typeof TAGS)[number];

export const SORT_OPTIONS = [
  { value: 'most_signatures', label: 'Most signatures' },
  { value: 'newest', label: 'Newest' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'fewest_signatures', label: 'Fewest signatures' },
  { value: 'alphabetical', label: 'Alphabetical' },
] as const;
export type SortOption = (typeof SORT_OPTIONS)[number]['value'];
export const DEFAULT_SORT: SortOption = 'most_signatures';

export const STATUS_FILTERS = [
  { value: 'all', label: 'All petitions' },
  { value: 'open', label: 'Open petitions' },
  { value: 'closed', label: 'Closed petitions' },
  { value: 'awaiting_response', label: 'Awaiting government response' },
  { value: 'with_response', label: 'Government responses' },
  { value: 'awaiting_debate', label: 'Awaiting a debate in Parliament' },
  { value: 'debated', label: 'Debated in Parliament' },
  { value: 'not_debated', label: 'Not debated in Parliament' },
] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

export const CLOSURE_REASONS = ['term_ended', 'three_weeks_insufficient_signatures'] as const;
export type ClosureReason = (typeof CLOSURE_REASONS)[number];

export const DEBATE_STATUSES = ['scheduled', 'debated', 'cancelled', 'not_debated'] as const;
export type DebateStatus = (typeof DEBATE_STATUSES)[number];

export const TERM_STATUSES = ['upcoming', 'current', 'completed'] as const;
export type TermStatus = (typeof TERM_STATUSES)[number];

/** Offices offered by the role select of the government-response form. */
export const MINISTERIAL_OFFICES = [
  'Prime Minister',
  'Deputy Prime Minister',
  'Chancellor of the Exchequer',
  'Foreign Secretary',
  'Home Secretary',
  'Defence Secretary',
  'Justice Secretary',
  'Leader of the House of Commons',
  'Chancellor of the Duchy of Lancaster',
  'Chief Secretary to the Treasury',
  'Health and Social Care Secretary',
  'Education Secretary',
  'Business and Trade Secretary',
  'Culture, Media and Sport Secretary',
  'Transport Secretary',
  'Work and Pensions Secretary',
  'Minister for the Cabinet Office',
  'Attorney General',
] as const;
export type MinisterialOffice = (typeof MINISTERIAL_OFFICES)[number];

/** Typed confirmation the administrator must enter to delete every petition. */
export const DELETE_ALL_CONFIRMATION = 'DELETE ALL PETITIONS';
