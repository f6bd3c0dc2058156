/** Business constants (docs/rules.md#limits). Every layer reads limits from here. */

export const TITLE_MIN = 5;
export const TITLE_MAX = 150;
export const DESCRIPTION_MIN = 30;
export const DESCRIPTION_MAX = 1000;
export const TAGS_MIN = 1;
export const TAGS_MAX = 5;

export const DAILY_PETITION_LIMIT = 3;
/** The calendar day for the daily limit is the UK day, whatever the viewer's zone. */
export const DAILY_LIMIT_TIME_ZONE = 'Europe/London';

export const RESPONSE_THRESHOLD = 10;
export const DEBATE_THRESHOLD = 20;
export const INSUFFICIENT_SIGNATURES_CLOSE_DAYS = 21;

export const SIGNERS_PREVIEW_COUNT = 10;
export const POPULAR_PETITIONS_COUNT = 5;

export const EXPIRY_CHECK_INTERVAL_MS = 300_000;
export const TERMS_POLL_INTERVAL_MS = 30_000;

/**
 * The live stream of site state (server-sent events): the server reads the state once per tick and
 * fans it out to every open page, so a page follows maintenance and "in session" within a few seconds.
 */
export const LIVE_EVENTS_PATH = '/api/site-status/events';
/** `unread` carries the signed-in member's unread notifications (docs/notifications.md). */
export const LIVE_EVENTS = { site: 'site', count: 'count', unread: 'unread' } as const;
export const LIVE_TICK_MS = 1_000;
/** A comment line this often keeps proxies from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** Reconnect backoff of the client: doubles from the first delay up to the last, with jitter. */
export const LIVE_RECONNECT_FIRST_MS = 1_000;
export const LIVE_RECONNECT_MAX_MS = 30_000;
export const CREATE_REDIRECT_DELAY_MS = 2_000;

export const DEFAULT_CATEGORY = 'General';
export const DEFAULT_DEBATE_LOCATION = 'Westminster Hall';
export const DEFAULT_DEBATE_STATUS = 'scheduled';

export const MINIMUM_AGE = 13;

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

/** Government group ranks that are offices. Other ranks in that group carry no staff rights. */
export const CABINET_MINISTER_RANK = 6;
export const LEADER_OF_THE_HOUSE_RANK = 7;
export const PRIME_MINISTER_RANK = 8;
export const ADMINISTRATOR_RANK = 9;

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const ADMIN_DESCRIPTION_PREVIEW = 150;
export const LEGACY_DEBATE_TEXT_PREVIEW = 100;

export const PAGE_TITLE = 'Petitions - UK Government and Parliament';

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

export const PETITION_STATUSES = [
  'open',
  'closed',
  'awaiting_government_response',
  'government_response',
  'awaiting_debate_in_parliament',
  'debated_in_parliament',
  'not_debated_in_parliament',
] as const;
export type PetitionStatus = (typeof PETITION_STATUSES)[number];

export const CLOSURE_REASONS = ['term_ended', 'three_weeks_insufficient_signatures'] as const;
export type ClosureReason = (typeof CLOSURE_REASONS)[number];

export const DEBATE_STATUSES = ['scheduled', 'debated', 'cancelled', 'not_debated'] as const;
export type DebateStatus = (typeof DEBATE_STATUSES)[number];

export const TERM_STATUSES = ['upcoming', 'current', 'completed'] as const;
export type TermStatus = (typeof TERM_STATUSES)[number];

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

export const ROLE_LABELS = {
  8: 'Prime Minister',
  7: 'Leader of the House of Commons',
  6: 'Cabinet Minister',
  administrator: 'System Administrator',
  citizen: 'British Citizen',
} as const;

export const USER_TYPES = {
  administrator: 'System Administrator',
  government: 'Government Official',
  citizen: 'British Citizen',
  guest: 'Guest',
} as const;

/** Typed confirmation the administrator must enter to delete every petition. */
export const DELETE_ALL_CONFIRMATION = 'DELETE ALL PETITIONS';

/**
 * When a staff action was made, sent by the console's outbox with every write it sends, so the
 * audit log can keep it beside the time the action was applied (src-shared/console/action-made-at.ts).
 */
export const ACTION_MADE_AT_HEADER = 'x-action-made-at';

/** Custom request header every unsafe call carries: a cross-site form cannot set it. */
export const CSRF_HEADER = 'x-petitions-csrf';
export const CSRF_HEADER_VALUE = '1';
