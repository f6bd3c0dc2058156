/** Calendar arithmetic in the UK zone, without a date library: Intl knows the zone rules. */
import { DAILY_LIMIT_TIME_ZONE } from '../domain/core-constants.ts';

const dayFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: DAILY_LIMIT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The UK calendar day of an instant, as YYYY-MM-DD. */
export function londonDay(instant: Date): string {
  return dayFormatter.format(instant);
}

const wallClockFormatter = new Intl.DateTimeFormat('en-GB', {
  timeZone: DAILY_LIMIT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

function londonOffsetMs(instant: Date): number {
  const parts = Object.fromEntries(wallClockFormatter.formatToParts(instant).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a UK calendar day (YYYY-MM-DD) begins. */
export function londonMidnight(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - londonOffsetMs(new Date(guess));
  // A second pass settles the few hours around a clock change.
  return new Date(guess - londonOffsetMs(new Date(first)));
}

export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Start (inclusive) and end (exclusive) instants of the UK day containing `instant`. */
export function londonDayBounds(instant: Date): { day: string; start: Date; end: Date } {
  const day = londonDay(instant);
  return { day, start: londonMidnight(day), end: londonMidnight(addDays(day, 1)) };
}

const longDateFormatter = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: DAILY_LIMIT_TIME_ZONE,
});

/** Dates in en-GB long form, e.g. '21 November 2026'. Plain YYYY-MM-DD dates are calendar dates, not instants. */
export function formatLongDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return longDateFormatter.format(date);
}

const dateTimeFormatter = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: DAILY_LIMIT_TIME_ZONE,
});

/** An instant in en-GB long form with the UK time, e.g. '21 November 2026 at 14:05'; unparseable text is shown as it is. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTimeFormatter.format(date);
}
