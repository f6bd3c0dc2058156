/**
 * The staff event stream's events as the clients read them (docs/console-team.md#the-staff-event-stream).
 * Hand-written guards, like live-events.ts, so the web app's staff chunk carries no schema library;
 * the server's zod schemas (team-schemas.ts) describe the same shapes.
 */
import { PRESENCE_ACTIVITIES, type PresenceActivity } from '../domain/team-constants.ts';
import type { PresenceEntry, PresenceList, QueueSummary } from '../domain/team-schemas.ts';

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function presenceEntry(value: unknown): PresenceEntry | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (!isText(v.userId) || !isText(v.displayName) || !isText(v.role) || !isText(v.since)) return null;
  if (!Number.isSafeInteger(v.petitionId) || !PRESENCE_ACTIVITIES.includes(v.activity as PresenceActivity)) return null;
  if (v.claimedUntil !== null && !isText(v.claimedUntil)) return null;
  return {
    userId: v.userId,
    displayName: v.displayName,
    role: v.role,
    petitionId: v.petitionId as number,
    activity: v.activity as PresenceActivity,
    since: v.since,
    claimedUntil: v.claimedUntil,
  };
}

/** A `presence` event's data (or the PUT/GET presence answer), or null when it is not one. */
export function parsePresenceList(text: string): PresenceList | null {
  const value = parseObject(text);
  if (!value || !Array.isArray(value.entries)) return null;
  const entries = value.entries.map(presenceEntry);
  return entries.every((entry): entry is PresenceEntry => entry !== null) ? { entries } : null;
}

function counts(value: unknown): { total: number; dueSoon: number; overdue: number } | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  return isCount(v.total) && isCount(v.dueSoon) && isCount(v.overdue) ? { total: v.total, dueSoon: v.dueSoon, overdue: v.overdue } : null;
}

function target(value: unknown): { targetDays: number; dueSoonDays: number } | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  return isCount(v.targetDays) && isCount(v.dueSoonDays) ? { targetDays: v.targetDays, dueSoonDays: v.dueSoonDays } : null;
}

/** A `queues` event's data, or null when it is not one. */
export function parseQueueSummary(text: string): QueueSummary | null {
  const value = parseObject(text);
  const targets = value?.targets as Record<string, unknown> | undefined;
  const queues = value?.queues as Record<string, unknown> | undefined;
  if (!targets || !queues || typeof targets !== 'object' || typeof queues !== 'object') return null;
  const response = target(targets.response);
  const debate = target(targets.debate);
  const responseCounts = counts(queues.response);
  const debateCounts = counts(queues.debate);
  if (!response || !debate || !responseCounts || !debateCounts) return null;
  return { targets: { response, debate }, queues: { response: responseCounts, debate: debateCounts } };
}
