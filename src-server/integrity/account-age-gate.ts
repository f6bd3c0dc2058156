/**
 * The server's side of the minimum account age (docs/integrity.md#minimum-account-age): the same
 * shared rule the pages show before the member tries, enforced on the calls themselves. Only new
 * signatures and creations are refused; signatures made before the setting changed stay.
 */
import { accountAgeRefusal, type AgeGatedAction } from '../../src-shared/rules/account-age.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';

/** The refusal this signed-in user would get for `action` right now, or null. */
export function accountAgeRefusalFor(context: Pick<AppContext, 'config' | 'now'>, user: Pick<UserRow, 'account_created_at'>, action: AgeGatedAction): string | null {
  return accountAgeRefusal({
    minimumDays: context.config.integrity.minAccountAgeDays,
    accountCreatedAt: user.account_created_at,
    now: context.now(),
    action,
  });
}

export function assertAccountOldEnough(context: Pick<AppContext, 'config' | 'now'>, user: Pick<UserRow, 'account_created_at'>, action: AgeGatedAction): void {
  const refusal = accountAgeRefusalFor(context, user, action);
  if (refusal) throw new HttpError(403, refusal);
}
