/** Route-schema pieces every staff route repeats: path parameters, documented problems, doc tags. */
import { z } from 'zod';
import { PetitionId, ProblemSchema, TermId, UserId } from '../../src-shared/domain/schemas.ts';

export const PetitionParams = z.strictObject({ id: PetitionId });
export const TermParams = z.strictObject({ id: TermId });
export const BanParams = z.strictObject({ userId: UserId });

export const DOC_TAGS = {
  terms: 'Parliamentary terms',
  petitions: 'Petition administration',
  response: 'Government responses',
  debate: 'Parliament debates',
  site: 'Site status',
  bans: 'Bans',
  audit: 'Audit log',
  notifications: 'Notifications',
} as const;

/** Problem Details replies a route may give, for the OpenAPI document (the serializer does not check them). */
export function problems(...codes: number[]): Record<number, typeof ProblemSchema> {
  return Object.fromEntries(codes.map((code) => [code, ProblemSchema]));
}

export const OFFLINE_HEADERS_NOTE =
  'Send `If-Match: "<version>"` to refuse the change when the petition moved on (412 with the current petition), ' +
  'and `Idempotency-Key` to make a retried call apply once.';
export const IDEMPOTENCY_NOTE = 'Send `Idempotency-Key` to make a retried call apply once.';

/** Staff calls carry the session cookie (web) or a bearer token (desktop console). */
export const STAFF_SECURITY: { [scheme: string]: string[] }[] = [{ session: [] }, { bearer: [] }];
