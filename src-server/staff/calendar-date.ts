/** The shared schemas check the YYYY-MM-DD shape; this also refuses days that do not exist. */
import { HttpError } from '../http/problem.ts';

export const CALENDAR_DATE_ERROR = 'Dates must be real calendar days written YYYY-MM-DD';

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function assertCalendarDates(...values: (string | null | undefined)[]): void {
  for (const value of values) {
    if (value && !isCalendarDate(value)) throw new HttpError(400, CALENDAR_DATE_ERROR);
  }
}
