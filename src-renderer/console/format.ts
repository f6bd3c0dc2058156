/** Times as the console shows them: wall-clock in the UK zone, as the rest of the service. */
import type { ConnectionState } from '../../src-shared/console/ipc-contract.ts';

const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

export function clockTime(iso: string): string {
  return clock.format(new Date(iso));
}

/** "14:02" today, "3 Nov, 14:02" on another day. */
export function shortDateTime(iso: string, now = Date.now()): string {
  const date = new Date(iso);
  return now - date.getTime() < 20 * 3_600_000 && clock.format(date) ? clockTime(iso) : dayClock.format(date);
}

export const CONNECTION_LABELS: Record<ConnectionState, string> = {
  online: 'Online',
  offline: 'Offline',
  signin_needed: 'Signing in needed',
};

/** "as of 14:02" for live data, "as of 14:02, offline" for data from the local cache. */
export function dataAge(fetchedAt: string | null, fromCache: boolean, now = Date.now()): string | null {
  if (!fetchedAt) return null;
  return `as of ${shortDateTime(fetchedAt, now)}${fromCache ? ', offline' : ''}`;
}
