/** Route-schema pieces every staff route repeats: path parameters, doc tags and header notes (problem replies: http/route-contract.ts). */
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
  staffChat: API_TAGS.staffChat.name,
  moderation: API_TAGS.moderation.name,
  integrity: API_TAGS.integrity.name,
  team: API_TAGS.team.name,
  statistics: API_TAGS.statistics.name,
} as const;


/** Every staff write takes it; the audit log keeps it (docs/audit.md#made-at-and-applied-at). */
const MADE_AT_NOTE =
  '`X-Action-Made-At` (an ISO 8601 instant, at most 5 minutes ahead and 30 days old, else 400) records when the action ' +
  'was made, if before it was sent (the console\'s outbox).';
export const OFFLINE_HEADERS_NOTE =
  'Send `If-Match: "<version>"` to refuse the change when the petition moved on (412 with the current petition), ' +
  `and \`Idempotency-Key\` to make a retried call apply once. ${MADE_AT_NOTE}`;
export const IDEMPOTENCY_NOTE = `Send \`Idempotency-Key\` to make a retried call apply once. ${MADE_AT_NOTE}`;
/** A bulk call is one batch made at one time: its header goes with every item (docs/audit.md#made-at-and-applied-at). */
export const BULK_MADE_AT_NOTE = `${MADE_AT_NOTE} It goes with every item's audit entry; a bad one refuses the whole call before any item is applied.`;
