/**
 * The rules of petition events (docs/notifications.md), written once: who receives each kind, the
 * preference topic it belongs to, which kind a debate change is, and the one-line summary every
 * client shows (feed, My petitions, web push).
 */
import { DEBATE_THRESHOLD, RESPONSE_THRESHOLD, type DebateStatus, type PetitionStatus } from '../domain/constants.ts';
import {
  EVENT_REASON_MAX,
  PETITION_EVENT_KINDS,
  RESPONSE_EXCERPT_MAX,
  type EventAudience,
  type FeedTopic,
  type PetitionEventKind,
} from '../domain/feed-constants.ts';
import type { PetitionEventDetail } from '../domain/feed-schemas.ts';
import type { DebateInfo } from '../domain/schemas.ts';
import { statusLabel } from './classification.ts';
import { formatLongDate } from './dates.ts';

const KIND_RULES: Record<PetitionEventKind, { audience: EventAudience; topic: FeedTopic }> = {
  response_added: { audience: 'signers', topic: 'responses' },
  response_edited: { audience: 'signers', topic: 'responses' },
  debate_scheduled: { audience: 'signers', topic: 'debates' },
  debate_held: { audience: 'signers', topic: 'debates' },
  debate_not_debated: { audience: 'signers', topic: 'debates' },
  debate_cancelled: { audience: 'signers', topic: 'debates' },
  petition_closed: { audience: 'signers', topic: 'closures' },
  threshold_reached: { audience: 'creator', topic: 'milestones' },
  status_changed: { audience: 'creator', topic: 'status' },
  petition_hidden: { audience: 'creator', topic: 'status' },
  petition_rejected: { audience: 'creator', topic: 'status' },
  petition_restored: { audience: 'creator', topic: 'status' },
};

/** Signers (the creator included) or the creator alone. */
export function eventAudience(kind: PetitionEventKind): EventAudience {
  return KIND_RULES[kind].audience;
}

export function eventTopic(kind: PetitionEventKind): FeedTopic {
  return KIND_RULES[kind].topic;
}

/** The kinds a set of switched-off topics hides. */
export function kindsOfTopics(topics: readonly FeedTopic[]): PetitionEventKind[] {
  return PETITION_EVENT_KINDS.filter((kind) => topics.includes(KIND_RULES[kind].topic));
}

/** The kinds whose audience is the given one. */
export function kindsFor(audience: EventAudience): PetitionEventKind[] {
  return PETITION_EVENT_KINDS.filter((kind) => KIND_RULES[kind].audience === audience);
}

export const FEED_TOPIC_LABELS: Record<FeedTopic, { label: string; hint: string }> = {
  responses: { label: 'Government responses', hint: 'A response is added or updated' },
  debates: { label: 'Parliament debates', hint: 'A debate is scheduled, held, cancelled or ruled out' },
  closures: { label: 'Closures', hint: 'A petition closes, and why' },
  milestones: { label: 'Signature milestones', hint: 'Your petition reaches 10 or 20 signatures' },
  status: { label: 'Status changes by staff', hint: 'Staff change the status of your petition' },
};

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1).trimEnd()}…` : trimmed;
}

/** The event a saved response is: added the first time, edited after. */
export function responseEvent(text: string, editing: boolean): PetitionEventDetail {
  return { kind: editing ? 'response_edited' : 'response_added', excerpt: clip(text, RESPONSE_EXCERPT_MAX) };
}

const DEBATE_KINDS: Record<DebateStatus, PetitionEventKind> = {
  scheduled: 'debate_scheduled',
  debated: 'debate_held',
  not_debated: 'debate_not_debated',
  cancelled: 'debate_cancelled',
};

/** The event a saved debate is, by its status. */
export function debateEvent(info: DebateInfo): PetitionEventDetail {
  const reason = info.notDebatedReason ? clip(info.notDebatedReason, EVENT_REASON_MAX) : null;
  switch (DEBATE_KINDS[info.status]) {
    case 'debate_scheduled':
      return { kind: 'debate_scheduled', date: info.date, location: info.location };
    case 'debate_held':
      return { kind: 'debate_held', date: info.date, hansardLink: info.hansardLink };
    case 'debate_not_debated':
      return { kind: 'debate_not_debated', reason };
    default:
      return { kind: 'debate_cancelled', date: info.date, reason };
  }
}

/**
 * The event a status set by staff is: closing is news for every signer ("closed by the petitions
 * team"); any other change is the creator's news; setting the same status is none.
 */
export function staffStatusEvent(from: PetitionStatus, to: PetitionStatus): PetitionEventDetail | null {
  if (from === to) return null;
  if (to === 'closed') return { kind: 'petition_closed', reason: 'staff' };
  return { kind: 'status_changed', from, to };
}

/** The thresholds a signature count crossed going from `before` to `after` (signing only goes up by one at a time). */
export function thresholdsCrossed(before: number, after: number): (typeof RESPONSE_THRESHOLD | typeof DEBATE_THRESHOLD)[] {
  return ([RESPONSE_THRESHOLD, DEBATE_THRESHOLD] as const).filter((threshold) => before < threshold && after >= threshold);
}

const CLOSURE_SUMMARIES = {
  three_weeks_insufficient_signatures: 'Closed after 3 weeks with fewer than 10 signatures',
  term_ended: 'Closed because the parliamentary term ended',
  staff: 'Closed by the petitions team',
} as const;

/**
 * One line saying what happened, e.g. "Government responded on 3 December 2026". `at` is when the
 * event was recorded; a debate's own date is the debate's.
 */
export function feedEventSummary(detail: PetitionEventDetail, at: string): string {
  const on = (value: string | null) => (value ? ` on ${formatLongDate(value)}` : '');
  switch (detail.kind) {
    case 'response_added':
      return `Government responded${on(at)}`;
    case 'response_edited':
      return `Government updated its response${on(at)}`;
    case 'debate_scheduled':
      return detail.date ? `Debate scheduled for ${formatLongDate(detail.date)} in ${detail.location}` : `Debate scheduled in ${detail.location}`;
    case 'debate_held':
      return `Debated in Parliament${on(detail.date)}`;
    case 'debate_not_debated':
      return 'Parliament decided not to debate this petition';
    case 'debate_cancelled':
      return detail.date ? `The debate scheduled for ${formatLongDate(detail.date)} was cancelled` : 'The scheduled debate was cancelled';
    case 'petition_closed':
      return `${CLOSURE_SUMMARIES[detail.reason]}${on(at)}`;
    case 'threshold_reached':
      return detail.threshold >= DEBATE_THRESHOLD
        ? `Reached ${detail.threshold} signatures: it will be considered for a debate in Parliament`
        : `Reached ${detail.threshold} signatures: it will receive a government response`;
    case 'status_changed':
      return `Status changed by staff from ${statusLabel(detail.from)} to ${statusLabel(detail.to)}`;
    case 'petition_hidden':
      return 'Hidden by the moderators';
    case 'petition_rejected':
      return 'Rejected by the moderators';
    case 'petition_restored':
      return 'Restored by the moderators';
  }
}

/** The longer text under the summary, when the event has one (a response excerpt, a reason, a Hansard link). */
export function feedEventExtra(detail: PetitionEventDetail): string | null {
  switch (detail.kind) {
    case 'response_added':
    case 'response_edited':
      return detail.excerpt || null;
    case 'debate_held':
      return detail.hansardLink;
    case 'debate_not_debated':
    case 'debate_cancelled':
    case 'petition_hidden':
    case 'petition_rejected':
    case 'petition_restored':
      return detail.reason;
    default:
      return null;
  }
}

export { notificationsButtonName, notifySignersText } from '../domain/feed-messages.ts';
