/**
 * The business constants every page of the web app reads from its first render: the thresholds, the office
 * ranks and role labels, the petition statuses, the live stream, the request headers, the page title
 * (docs/rules.md#limits). constants.ts re-exports them with all the others, so every layer still reads any
 * constant from there. They are a module of their own because a bundle keeps every export of a module its
 * entry file holds: the web app's entry imports these and not the lists of tags, sorts, filters and offices
 * that later pages and staff screens read (docs/operations.md#javascript-weight).
 */

/** The calendar day for the daily limit is the UK day, whatever the viewer's zone. */
export const DAILY_LIMIT_TIME_ZONE = 'Europe/London';

export const RESPONSE_THRESHOLD = 10;
export const DEBATE_THRESHOLD = 20;

export const EXPIRY_CHECK_INTERVAL_MS = 300_000;
export const TERMS_POLL_INTERVAL_MS = 30_000;

/**
 * The live stream of site state (server-sent events): the server reads the state once per tick and
 * fans it out to every open page, so a page follows maintenance and "in session" within a few seconds.
 */
export const LIVE_EVENTS_PATH = '/api/site-status/events';
/** `unread` carries the signed-in member's unread notifications (docs/notifications.md). */
export const LIVE_EVENTS = { site: 'site', count: 'count', unread: 'unread' } as const;
/** Reconnect backoff of the client: doubles from the first delay up to the last, with jitter. */
export const LIVE_RECONNECT_FIRST_MS = 1_000;
export const LIVE_RECONNECT_MAX_MS = 30_000;

export const MINIMUM_AGE = 13;

/** Government group ranks that are offices. Other ranks in that group carry no staff rights. */
export const CABINET_MINISTER_RANK = 6;
export const LEADER_OF_THE_HOUSE_RANK = 7;
export const PRIME_MINISTER_RANK = 8;
export const ADMINISTRATOR_RANK = 9;
export const LEGACY_DEBATE_TEXT_PREVIEW = 100;

export const PAGE_TITLE = 'Petitions - UK Government and Parliament';

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

/**
 * When a staff action was made, sent by the console's outbox with every write it sends, so the
 * audit log can keep it beside the time the action was applied (src-shared/console/action-made-at.ts).
 */
export const ACTION_MADE_AT_HEADER = 'x-action-made-at';

/** Custom request header every unsafe call carries: a cross-site form cannot set it. */
export const CSRF_HEADER = 'x-petitions-csrf';
export const CSRF_HEADER_VALUE = '1';
