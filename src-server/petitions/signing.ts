/**
 * Signing and unsigning: the hot path. A signature is one row keyed by (petition, user), so the
 * database itself refuses a second one; the count moves by +1/-1 in SQL in the same transaction,
 * and the status follows the shared automaticStatus rule. A successful call runs two statements
 * inside its transaction (write the signature, move the count), plus a status update only when a
 * threshold is crossed; why a call was refused is looked up only when something was refused.
 */
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { DebateInfo, SignResult } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../http/problem.ts';
import type { Viewer } from '../http/viewer.ts';
import type { Db } from '../db/schema.ts';
import { preparedQuery } from '../db/prepared-query.ts';

type SignAction = 'sign' | 'unsign';

/** Copies the signer only if the petition exists and is not closed; the primary key drops a repeat. */
const insertSignature = preparedQuery(
  ['petitionId', 'userId', 'username', 'displayName', 'signedAt'],
  (db, p: { petitionId: number; userId: string; username: string; displayName: string; signedAt: string }) =>
    db
      .insertInto('signatures')
      .columns(['petition_id', 'user_id', 'username', 'display_name', 'signed_at'])
      .expression((eb) =>
        eb
          .selectFrom('petitions')
          .select([
            'petitions.id',
            eb.val(p.userId).as('user_id'),
            eb.val(p.username).as('username'),
            eb.val(p.displayName).as('display_name'),
            eb.val(p.signedAt).as('signed_at'),
          ])
          .where('petitions.id', '=', p.petitionId)
          .where('petitions.status', '<>', 'closed'),
      )
      .onConflict((oc) => oc.columns(['petition_id', 'user_id']).doNothing()),
);

const deleteSignature = preparedQuery(['petitionId', 'userId'], (db, p: { petitionId: number; userId: string }) =>
  db
    .deleteFrom('signatures')
    .where('petition_id', '=', p.petitionId)
    .where('user_id', '=', p.userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('petitions')
          .select('petitions.id')
          .where('petitions.id', '=', p.petitionId)
          .where('petitions.status', '<>', 'closed'),
      ),
    ),
);

/** Moves the count in SQL, never read-modify-write, and returns what automaticStatus needs. */
const moveCount = preparedQuery(['petitionId', 'delta'], (db, p: { petitionId: number; delta: number }) =>
  db
    .updateTable('petitions')
    .set((eb) => ({ signature_count: eb('signature_count', '+', p.delta) }))
    .where('id', '=', p.petitionId)
    .returning(['signature_count', 'status', 'government_response', 'debate_info']),
);

/** Crossing a threshold changes what staff see, so it bumps the version; a bare count change does not. */
const storeStatus = preparedQuery(['petitionId', 'status', 'updatedAt'], (db, p: { petitionId: number; status: string; updatedAt: string }) =>
  db
    .updateTable('petitions')
    .set((eb) => ({ status: p.status, version: eb('version', '+', 1), updated_at: p.updatedAt }))
    .where('id', '=', p.petitionId),
);

/** Why nothing was written: the petition is missing, closed, or the signature already in the wanted state. */
async function refusal(db: Db, petitionId: number, action: SignAction): Promise<HttpError> {
  const petition = await db.selectFrom('petitions').select('status').where('id', '=', petitionId).executeTakeFirst();
  if (!petition) return new HttpError(404, ERRORS.petitionNotFound);
  if (petition.status === 'closed') return new HttpError(409, ERRORS.petitionClosed);
  return new HttpError(409, action === 'sign' ? ERRORS.alreadySigned : ERRORS.notSigned);
}

function parseDebateInfo(text: string | null): DebateInfo | null {
  return text ? (JSON.parse(text) as DebateInfo | null) : null;
}

async function applyCountChange(trx: Db, petitionId: number, delta: 1 | -1, stamp: string): Promise<number> {
  const row = (await moveCount(trx, { petitionId, delta })).rows[0];
  if (!row) throw new HttpError(404, ERRORS.petitionNotFound);
  const status = automaticStatus({
    status: row.status,
    signatures: row.signature_count,
    governmentResponse: row.government_response,
    debateInfo: parseDebateInfo(row.debate_info),
  });
  if (status !== row.status) await storeStatus(trx, { petitionId, status, updatedAt: stamp });
  return row.signature_count;
}

export async function signPetition(context: AppContext, viewer: Viewer, petitionId: number): Promise<SignResult> {
  const { user } = viewer;
  const stamp = context.now().toISOString();
  return context.db.transaction().execute(async (trx) => {
    const inserted = await insertSignature(trx, {
      petitionId,
      userId: user.id,
      username: user.username,
      displayName: user.displayName,
      signedAt: stamp,
    });
    if (!Number(inserted.numAffectedRows ?? 0)) throw await refusal(trx, petitionId, 'sign');
    return { signatures: await applyCountChange(trx, petitionId, 1, stamp), signed: true };
  });
}

export async function unsignPetition(context: AppContext, viewer: Viewer, petitionId: number): Promise<SignResult> {
  const { user } = viewer;
  const stamp = context.now().toISOString();
  return context.db.transaction().execute(async (trx) => {
    const deleted = await deleteSignature(trx, { petitionId, userId: user.id });
    if (!Number(deleted.numAffectedRows ?? 0)) throw await refusal(trx, petitionId, 'unsign');
    return { signatures: await applyCountChange(trx, petitionId, -1, stamp), signed: false };
  });
}
