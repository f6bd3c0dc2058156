/**
 * The reads behind a petition page, precompiled (see prepared-query.ts): they run on every page
 * view and every live-counter poll.
 */
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { PetitionCount, Signer } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import type { Db, PetitionRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import { toSigner } from './signer-view.ts';

const petitionById = preparedQuery(['id'], (db, p: { id: number }) => db.selectFrom('petitions').selectAll().where('id', '=', p.id));

const countById = preparedQuery(['id'], (db, p: { id: number }) =>
  db.selectFrom('petitions').select(['id', 'signature_count', 'status']).where('id', '=', p.id),
);

/** Oldest first through the (petition_id, signed_at) index; the user id breaks ties. */
const signersPage = preparedQuery(['petitionId', 'limit', 'offset'], (db, p: { petitionId: number; limit: number; offset: number }) =>
  db
    .selectFrom('signatures')
    .select(['user_id', 'username', 'display_name', 'signed_at'])
    .where('petition_id', '=', p.petitionId)
    .orderBy('signed_at', 'asc')
    .orderBy('user_id', 'asc')
    .limit(p.limit)
    .offset(p.offset),
);

const signatureOf = preparedQuery(['petitionId', 'userId'], (db, p: { petitionId: number; userId: string }) =>
  db.selectFrom('signatures').select('user_id').where('petition_id', '=', p.petitionId).where('user_id', '=', p.userId),
);

export async function requirePetition(db: Db, id: number): Promise<PetitionRow> {
  const row = (await petitionById(db, { id })).rows[0];
  if (!row) throw new HttpError(404, ERRORS.petitionNotFound);
  return row;
}

/** 404 with the spec's text when the petition does not exist. */
export async function findPetitionCount(context: AppContext, id: number): Promise<PetitionCount> {
  const row = (await countById(context.db, { id })).rows[0];
  if (!row) throw new HttpError(404, ERRORS.petitionNotFound);
  return { id: row.id, signatures: context.signatureCounts.live(row.id, row.signature_count), status: row.status as PetitionStatus };
}

export async function listSigners(db: Db, petitionId: number, offset: number, limit: number): Promise<Signer[]> {
  return (await signersPage(db, { petitionId, limit, offset })).rows.map(toSigner);
}

export async function hasSigned(db: Db, petitionId: number, userId: string): Promise<boolean> {
  return (await signatureOf(db, { petitionId, userId })).rows.length > 0;
}
