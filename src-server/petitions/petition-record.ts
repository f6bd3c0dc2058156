/** Maps stored petition rows to the API's Petition shape; shared by public and staff routes. */
import type { ContributionMeta, DebateInfo, Petition } from '../../src-shared/domain/schemas.ts';
import type { ClosureReason, PetitionStatus } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Db, PetitionRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';

function parseJson<T>(text: string | null): T | null {
  return text ? (JSON.parse(text) as T) : null;
}

export function toPetition(row: PetitionRow): Petition {
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
    governmentResponseMeta: parseJson<ContributionMeta>(row.government_response_meta),
    debateInfo: parseJson<DebateInfo>(row.debate_info),
    debateInfoMeta: parseJson<ContributionMeta>(row.debate_info_meta),
    version: row.version,
  };
}

export async function findPetitionRow(db: Db, id: number): Promise<PetitionRow | undefined> {
  return db.selectFrom('petitions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requirePetitionRow(db: Db, id: number): Promise<PetitionRow> {
  const row = await findPetitionRow(db, id);
  if (!row) throw new HttpError(404, ERRORS.petitionNotFound);
  return row;
}
