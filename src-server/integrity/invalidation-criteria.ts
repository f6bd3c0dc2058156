/**
 * Invalidation criteria as SQL (docs/integrity.md#invalidation). The criteria a staff member chose
 * are resolved once, against the moment the invalidation was requested (or the preview made):
 * "accounts younger than N days" means younger than N days then, and only signatures made until
 * then are touched, so what runs is what was previewed and later signatures are never swept up.
 */
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { InvalidationCriteria } from '../../src-shared/domain/integrity-schemas.ts';
import { youngerThanCutoff } from '../../src-shared/rules/account-age.ts';
import type { Database } from '../db/schema.ts';

export interface ResolvedCriteria {
  petitionId: number | null;
  /** Signed at or after. */
  signedFrom: string | null;
  /** Signed before (exclusive), or null. */
  signedBefore: string | null;
  /** Signed no later than (the request's moment). */
  signedUpTo: string;
  /** Accounts created after this instant (younger than N days at the request). */
  accountCreatedAfter: string | null;
  userIds: string[] | null;
}

export function resolveCriteria(criteria: InvalidationCriteria, at: Date): ResolvedCriteria {
  return {
    petitionId: criteria.petitionId,
    signedFrom: criteria.signedFrom,
    signedBefore: criteria.signedTo,
    signedUpTo: at.toISOString(),
    accountCreatedAfter: criteria.accountYoungerThanDays ? youngerThanCutoff(at, criteria.accountYoungerThanDays) : null,
    userIds: criteria.userIds,
  };
}

type SignaturesQuery<O> = SelectQueryBuilder<Database & { s: Database['signatures'] }, 's', O>;

/**
 * Every filter of the criteria but the petition, on `signatures AS s` (with `users AS u` joined
 * when the account's age matters: signatures of users we never saw signing in have no known age
 * and never match that criterion).
 */
export function whereMatching<O>(query: SignaturesQuery<O>, criteria: ResolvedCriteria): SignaturesQuery<O> {
  let q = query.where('s.signed_at', '<=', criteria.signedUpTo);
  if (criteria.signedFrom) q = q.where('s.signed_at', '>=', criteria.signedFrom);
  if (criteria.signedBefore) q = q.where('s.signed_at', '<', criteria.signedBefore);
  if (criteria.userIds) q = q.where('s.user_id', 'in', criteria.userIds);
  if (criteria.accountCreatedAfter) {
    const after = criteria.accountCreatedAfter;
    q = q.where((eb: ExpressionBuilder<Database & { s: Database['signatures'] }, 's'>) =>
      eb.exists(
        eb
          .selectFrom('users as u')
          .select('u.id')
          .whereRef('u.id', '=', 's.user_id')
          .where('u.account_created_at', '>', after),
      ),
    );
  }
  return q;
}
