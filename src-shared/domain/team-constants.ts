/**
 * Working as a team (docs/console-team.md): who is on which petition right now (presence), who is
 * writing an answer (a claim), how long a queued petition has waited (ageing), and the staff event
 * stream that carries the first two live. Plain constants, no zod: the web app's first download
 * reads them too.
 */

/** The two staff queues: petitions awaiting a government response, and awaiting a debate. */
export const QUEUE_KINDS = ['response', 'debate'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/**
 * What a staff member is doing on a petition. `viewing` is presence only; the two writing
 * activities are claims (docs/console-team.md#claims).
 */
export const PRESENCE_ACTIVITIES = ['viewing', 'responding', 'debating'] as const;
export type PresenceActivity = (typeof PRESENCE_ACTIVITIES)[number];

/** A client sends its presence again this often while it stays on a petition (a heartbeat). */
export const PRESENCE_HEARTBEAT_MS = 20_000;
/** Presence not renewed for this long has gone (a closed laptop, a crashed tab): three missed heartbeats. */
export const PRESENCE_SEEN_MS = 60_000;
/** A claim lasts this long after the form opened or the writer last typed (docs/console-team.md#claims). */
export const PRESENCE_CLAIM_MS = 5 * 60_000;
/** While typing, a client renews its claim at most this often. */
export const PRESENCE_CLAIM_RENEW_MS = 30_000;

/**
 * The staff event stream (server-sent events, staff only): `presence` whenever who-is-where
 * changes, `queues` whenever the queue summary (sizes, due soon, overdue) changes.
 */
export const STAFF_EVENTS_PATH = '/api/staff/events';
export const STAFF_EVENTS = { presence: 'presence', queues: 'queues' } as const;
/** A staff stream ends after this long and the client reconnects, so access is checked again. */
export const STAFF_STREAM_MAX_MS = 15 * 60_000;
/** How often the server reads the queue summary for open staff streams. */
export const QUEUE_SUMMARY_TICK_MS = 5_000;

/**
 * Default targets of the queues, in days from the threshold (docs/console-team.md#ageing-targets);
 * RESPONSE_TARGET_DAYS and DEBATE_TARGET_DAYS override them on the server.
 */
export const DEFAULT_RESPONSE_TARGET_DAYS = 14;
export const DEFAULT_DEBATE_TARGET_DAYS = 28;
export const TARGET_DAYS_MAX = 365;
