/**
 * The minimum account age to sign and to create petitions (docs/integrity.md#minimum-account-age),
 * and what a "young" account is in the unusual-signing figures. The server enforces both; the web
 * app and the console show the same refusal before the member tries.
 *
 * Ages for the rule are UK calendar days, as the daily limit's days are: an account created at any
 * time on 26 November is 7 days old from the start of 3 December, so the refusal can name the date.
 */
import { YOUNG_ACCOUNT_DAYS } from '../domain/constants.ts';
import { ACCOUNT_AGE_TEXT } from '../domain/messages.ts';
import { addDays, formatLongDate, londonDay } from './dates.ts';

export type AgeGatedAction = 'sign' | 'create';

export interface AccountAgeCheck {
  /** MIN_ACCOUNT_AGE_DAYS; 0 switches the rule off. */
  minimumDays: number;
  /** The account's creation (ISO), or null when the provider never said. */
  accountCreatedAt: string | null;
  now: Date;
  action: AgeGatedAction;
}

/** The UK day (YYYY-MM-DD) from which the account is old enough. */
export function accountQualifyingDay(accountCreatedAt: string, minimumDays: number): string {
  return addDays(londonDay(new Date(accountCreatedAt)), minimumDays);
}

/**
 * Why this account may not sign or create yet, or null when it may. An account whose age is unknown
 * is refused while the rule is on: its next sign-in brings the age (auth/account-signals.ts).
 */
export function accountAgeRefusal(check: AccountAgeCheck): string | null {
  if (check.minimumDays <= 0) return null;
  if (!check.accountCreatedAt || Number.isNaN(Date.parse(check.accountCreatedAt))) {
    return ACCOUNT_AGE_TEXT.unknownAge(check.minimumDays, check.action);
  }
  const qualifyingDay = accountQualifyingDay(check.accountCreatedAt, check.minimumDays);
  if (londonDay(check.now) >= qualifyingDay) return null;
  return ACCOUNT_AGE_TEXT.tooYoung(check.minimumDays, check.action, formatLongDate(qualifyingDay));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Younger than YOUNG_ACCOUNT_DAYS (exact time) at `at`; an unknown age is not counted as young. */
export function isYoungAccount(accountCreatedAt: string | null, at: string | Date): boolean {
  if (!accountCreatedAt) return false;
  const created = Date.parse(accountCreatedAt);
  const when = typeof at === 'string' ? Date.parse(at) : at.getTime();
  return !Number.isNaN(created) && when - created < YOUNG_ACCOUNT_DAYS * DAY_MS;
}

/** The instant before which an account created after it is "younger than `days` days" at `at`. */
export function youngerThanCutoff(at: Date, days: number): string {
  return new Date(at.getTime() - days * DAY_MS).toISOString();
}
