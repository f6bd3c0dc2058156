/** Route-schema pieces every staff route repeats: path parameters, documented problems, doc tags. */
import { z } from 'zod';
import { API_TAGS } from '../http/openapi-document.ts';
import { PetitionId, TermId, UserId } from '../../src-shared/domain/schemas.ts';

export const PetitionParams = z.strictObject({ id: PetitionId });
export const TermParams = z.strictObject({ id: TermId });
export const BanParams = z.strictObject({ userId: UserId });

export const DOC_TAGS = {
  terms: API_TAGS.terms.name,
  petitions: API_TAGS.petitionAdmin.name,
  response: API_TAGS.response.name,
  debate: API_TAGS.debate.name,
  site: API_TAGS.site.name,
  bans: API_TAGS.bans.name,
  audit: API_TAGS.audit.name,
  notifications: API_TAGS.notifications.name,
} as const;

export { problems } from '../http/route-contract.ts';

export const OFFLINE_HEADERS_NOTE =
  'Send `If-Match: "<version>"` to refuse the change when the petition moved on (412 with the current petition), ' +
  'and `Idempotency-Key` to make a retried call apply once.';
export const IDEMPOTENCY_NOTE = 'Send `Idempotency-Key` to make a retried call apply once.';
