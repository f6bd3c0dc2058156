/** Maps stored petition rows to the API's Petition shape; shared by public and staff routes. */
import type { ContributionMeta, DebateInfo, Petition, PetitionModeration } from '../../src-shared/domain/schemas.ts';
import type { ModerationState } from '../../src-shared/domain/moderation-constants.ts';
import type { ClosureReason, PetitionStatus } from '../../src-shared/domain/constants.ts';
import type { PetitionRow } from '../db/schema.ts';

/** The JSON text columns of a petition row; empty means none. */
export function readMeta(text: string | null): ContributionMeta | null {
  return text ? (JSON.parse(text) as ContributionMeta) : null;
}

export function readDebateInfo(text: string | null): DebateInfo | null {
  return text ? (JSON.parse(text) as DebateInfo) : null;
}

/** Why the petition is out of public view, or undefined while it is visible (docs/moderation.md#states). */
export function readModeration(row: Pick<PetitionRow, 'moderation_state' | 'moderation_note' | 'moderation_reason_code' | 'moderated_at'>): PetitionModeration | undefined {
  if (row.moderation_state === null) return undefined;
  return {
    state: row.moderation_state as ModerationState,
    note: row.moderation_note,
    reasonCode: row.moderation_reason_code,
    at: row.moderated_at ?? '',
  };
}

export function toPetition(row: PetitionRow): Petition {
  const moderation = readModeration(row);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    creator: row.creator_name,
    creator_id: row.creator_id,
    tags: JSON.parse(row.tags) as string[],
    category: row.category,
    termId: row.term_id,
    status: row.status as PetitionStatus,
    signatures: row.signature_count,
    created: row.created_at,
    closureReason: row.closure_reason as ClosureReason | null,
    closedAt: row.closed_at,
    governmentResponse: row.government_response,
    governmentResponseMeta: readMeta(row.government_response_meta),
    debateInfo: readDebateInfo(row.debate_info),
    debateInfoMeta: readMeta(row.debate_info_meta),
    version: row.version,
    // Only present while moderated, so a visible petition's shape is unchanged.
    ...(moderation ? { moderation } : {}),
    responseThresholdReachedAt: row.response_threshold_reached_at,
    debateThresholdReachedAt: row.debate_threshold_reached_at,
  };
}
