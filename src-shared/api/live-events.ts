/**
 * The live stream's events as every client reads them (web app now, console later); its address is
 * `streamSiteEvents` (visitor-calls.ts).
 * The guards are hand-written so the web app's first download carries no schema library; the
 * server's zod schemas (SiteStatusSchema, PetitionCountSchema) describe the same shapes.
 */
import { PETITION_STATUSES } from '../domain/core-constants.ts';
import type { PetitionStatus } from '../domain/constants.ts';
import type { PetitionCount, SiteStatus } from '../domain/schemas.ts';

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A `site` event's data, or null when it is not one. */
export function parseSiteEvent(text: string): SiteStatus | null {
  const value = parseObject(text);
  if (!value || typeof value.maintenance !== 'boolean' || typeof value.inSession !== 'boolean') return null;
  return { maintenance: value.maintenance, inSession: value.inSession };
}

/** An `unread` event's data (the signed-in member's unread notifications), or null when it is not one. */
export function parseUnreadEvent(text: string): number | null {
  const value = parseObject(text);
  return value && Number.isSafeInteger(value.unread) && (value.unread as number) >= 0 ? (value.unread as number) : null;
}

/** A `count` event's data, or null when it is not one. */
export function parseCountEvent(text: string): PetitionCount | null {
  const value = parseObject(text);
  if (!value || !Number.isSafeInteger(value.id) || !Number.isSafeInteger(value.signatures)) return null;
  if (!PETITION_STATUSES.includes(value.status as PetitionStatus)) return null;
  return { id: value.id as number, signatures: value.signatures as number, status: value.status as PetitionStatus };
}
