/**
 * What an invalidation would do, before anyone confirms it (docs/integrity.md#invalidation): how many
 * signatures match, on how many petitions, what the most affected petitions' counts and statuses
 * become, and a sample of the signatures themselves. Reads only.
 */
import { INVALIDATION_SAMPLE_SIZE } from '../../src-shared/domain/constants.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import type { InvalidationCriteria, InvalidationPreview, PetitionEffect } from '../../src-shared/domain/integrity-schemas.ts';
import { statusAfterRecount } from '../../src-shared/rules/signature-integrity.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { readDebateInfo } from '../petitions/petition-record.ts';
import { resolveCriteria, whereMatching, type ResolvedCriteria } from './invalidation-criteria.ts';

const MOST_AFFECTED = 20;

export async function countMatching(db: Db, criteria: ResolvedCriteria): Promise<{ matching: number; petitions: number }> {
  let query = whereMatching(
    db.selectFrom('signatures as s').select((eb) => [eb.fn.countAll<number>().as('matching'), eb.fn.count<number>('s.petition_id').distinct().as('petitions')]),
    criteria,
  );
  if (criteria.petitionId !== null) query = query.where('s.petition_id', '=', criteria.petitionId);
  const row = await query.executeTakeFirstOrThrow();
  return { matching: Number(row.matching), petitions: Number(row.petitions) };
}

async function mostAffected(context: Pick<AppContext, 'db' | 'signatureCounts'>, criteria: ResolvedCriteria): Promise<PetitionEffect[]> {
  let grouped = whereMatching(
    context.db.selectFrom('signatures as s').select((eb) => ['s.petition_id', eb.fn.countAll<number>().as('matching')]),
    criteria,
  );
  if (criteria.petitionId !== null) grouped = grouped.where('s.petition_id', '=', criteria.petitionId);
  const counts = await grouped
    .groupBy('s.petition_id')
    .orderBy((eb) => eb.fn.countAll(), 'desc')
    .orderBy('s.petition_id')
    .limit(MOST_AFFECTED)
    .execute();
  if (!counts.length) return [];
  const rows = await context.db
    .selectFrom('petitions')
    .select(['id', 'title', 'signature_count', 'status', 'government_response', 'debate_info'])
    .where(
      'id',
      'in',
      counts.map((c) => c.petition_id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return counts.flatMap((entry) => {
    const row = byId.get(entry.petition_id);
    if (!row) return [];
    const signatures = context.signatureCounts.live(row.id, row.signature_count);
    const matching = Number(entry.matching);
    const status = row.status as PetitionStatus;
    const statusAfter = statusAfterRecount(
      { status, signatures, governmentResponse: row.government_response, debateInfo: readDebateInfo(row.debate_info) },
      signatures - matching,
    );
    return [{ petitionId: row.id, title: row.title, signatures, matching, signaturesAfter: signatures - matching, status, statusAfter }];
  });
}

async function sample(db: Db, criteria: ResolvedCriteria) {
  let query = whereMatching(
    db
      .selectFrom('signatures as s')
      .innerJoin('petitions as p', 'p.id', 's.petition_id')
      .leftJoin('users as a', 'a.id', 's.user_id')
      .select(['s.petition_id', 'p.title', 's.user_id', 's.username', 's.display_name', 's.signed_at', 'a.account_created_at', 'a.account_verified']),
    criteria,
  );
  if (criteria.petitionId !== null) query = query.where('s.petition_id', '=', criteria.petitionId);
  const rows = await query.orderBy('s.signed_at', 'desc').orderBy('s.user_id', 'desc').limit(INVALIDATION_SAMPLE_SIZE).execute();
  return rows.map((row) => ({
    petitionId: row.petition_id,
    petitionTitle: row.title,
    userId: row.user_id,
    username: row.username,
    displayName: row.display_name,
    signedAt: row.signed_at,
    accountCreatedAt: row.account_created_at,
    accountVerified: row.account_verified === null ? null : row.account_verified === 1,
  }));
}

export async function previewInvalidation(
  context: Pick<AppContext, 'db' | 'signatureCounts' | 'now'>,
  criteria: InvalidationCriteria,
): Promise<InvalidationPreview> {
  const at = context.now();
  const resolved = resolveCriteria(criteria, at);
  const [totals, byPetition, signatures] = [await countMatching(context.db, resolved), await mostAffected(context, resolved), await sample(context.db, resolved)];
  return { criteria, asOf: at.toISOString(), matching: totals.matching, petitions: totals.petitions, byPetition, sample: signatures };
}
