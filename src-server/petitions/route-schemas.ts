/** Pieces of route schemas shared by the public petition routes (OpenAPI tags, params, problem replies). */
import { z } from 'zod';
import { PetitionId, ProblemSchema } from '../../src-shared/domain/schemas.ts';

export const PETITIONS_TAG = 'Petitions';
export const SIGNING_TAG = 'Signing';
export const SITE_TAG = 'Site';

/** Canonical digits only (src-shared's strict id), so '1e3', ' 12' or '0x10' are refused rather than read as some other petition. */
export const PetitionIdParams = z.strictObject({ id: PetitionId });

/** Problem Details replies, keyed by status, for the OpenAPI document. */
export function problems<const S extends readonly number[]>(...statuses: S): Record<S[number], typeof ProblemSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ProblemSchema])) as Record<S[number], typeof ProblemSchema>;
}
