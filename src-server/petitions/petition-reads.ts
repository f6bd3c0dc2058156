/**
 * The reads behind a petition page, precompiled (see prepared-query.ts): they run on every page
 * view and every live-counter poll.
 */
import { sql } from 'kysely';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { PetitionCount, Signer } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import type { Db, PetitionPageRow, PetitionRow } from '../db/schema.ts';
import { dialectOf } from '../db/dialect.ts';
import { HttpError } from '../http/problem.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import type { WarmCursor } from './petition-cache.ts';
import { toSigner } from './signer-view.ts';
import { MODERATION_ERRORS } from '../../src-shared/rules/moderation.ts';
import type { PermissionSubject } from '../../src-shared/rules/permissions.ts';
import { rejectionOf } from '../moderation/rejection-reasons.ts';
import { isPubliclyVisible, mayViewModerated } from './public-visibility.ts';

const petitionById = preparedQuery(['id'], (db, p: { id: number }) => db.selectFrom('petitions').selectAll().where('id', '=', p.id));

/**
 * The petition with its first signers (PetitionPageRow): on SQLite they are a column of the row, on
 * PostgreSQL read from the signatures by `petition_first_signers` (migration 0027), a few index
 * entries per petition read, while no signature has to rewrite its petition's list.
 */
function petitionPages(db: Db) {
  const petitions = db.selectFrom('petitions').selectAll();
  return dialectOf(db) === 'postgres'
    ? petitions.select(sql<string>`petition_first_signers(petitions.id)`.as('first_signers'))
    : petitions.$castTo<PetitionPageRow>();
}

const petitionPageById = preparedQuery(['id'], (db, p: { id: number }) => petitionPages(db).where('id', '=', p.id));

const countById = preparedQuery(['id'], (db, p: { id: number }) =>
  db.selectFrom('petitions').select(['id', 'signature_count', 'status', 'moderation_state']).where('id', '=', p.id),
);

/** Oldest first in (petition_id, signed_at) order: the table's key on SQLite, an index on PostgreSQL; the user id breaks ties. */
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

const invalidatedSignatureOf = preparedQuery(['petitionId', 'userId'], (db, p: { petitionId: number; userId: string }) =>
  db.selectFrom('invalidated_signatures').select('user_id').where('petition_id', '=', p.petitionId).where('user_id', '=', p.userId),
);

export async function findPetition(db: Db, id: number): Promise<PetitionRow | undefined> {
  return (await petitionById(db, { id })).rows[0];
}

/** The petition page's row: the petition and its first signers (what the petition cache keeps). */
export async function findPetitionPage(db: Db, id: number): Promise<PetitionPageRow | undefined> {
  return (await petitionPageById(db, { id })).rows[0];
}

/** Petition pages by (updated_at, id), newest first, after `cursor` (the (updated_at, id) index, walked backwards). */
export async function recentlyChangedPetitions(db: Db, cursor: WarmCursor, limit: number): Promise<PetitionPageRow[]> {
  return petitionPages(db)
    .$if(cursor !== null, (query) => query.where((eb) => eb(eb.refTuple('updated_at', 'id'), '<', eb.tuple(cursor!.updatedAt, cursor!.id))))
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function requirePetition(db: Db, id: number): Promise<PetitionRow> {
  return found(await findPetition(db, id));
}

/** The petition page's row, through this node's cache (petition-cache.ts); 404 when there is none. */
export async function requireCachedPetition(context: Pick<AppContext, 'petitionCache'>, id: number): Promise<PetitionPageRow> {
  return found(await context.petitionCache.row(id));
}

function found<Row extends PetitionRow>(row: Row | undefined): Row {
  if (!row) throw new HttpError(404, ERRORS.petitionNotFound);
  return row;
}

/**
 * A hidden or rejected petition (docs/moderation.md#what-the-public-sees) refused to whoever may not
 * see it: 404, or with `tombstone` (the petition page) 410 with the rejection's public reason when
 * the petition was rejected for a reason that is not hidden. Its creator and moderators pass.
 */
export async function assertViewable(
  db: Db,
  row: PetitionRow,
  user: (PermissionSubject & { id: string }) | null | undefined,
  options: { tombstone?: boolean } = {},
): Promise<void> {
  if (isPubliclyVisible(row) || mayViewModerated(user, row)) return;
  if (options.tombstone) {
    const rejection = await rejectionOf(db, row);
    if (rejection && !rejection.hidden) {
      const { hidden: _hidden, ...publicPart } = rejection;
      throw new HttpError(410, MODERATION_ERRORS.petitionRejected, { rejection: publicPart });
    }
  }
  throw new HttpError(404, ERRORS.petitionNotFound);
}

/** Whether the public has a page for this petition: visible, or a rejection's tombstone (the web app's page status). */
export async function hasPublicPage(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('petitions').select(['moderation_state', 'moderation_reason_code', 'moderated_at']).where('id', '=', id).executeTakeFirst();
  if (!row) return false;
  if (isPubliclyVisible(row)) return true;
  const rejection = await rejectionOf(db, row);
  return rejection !== null && !rejection.hidden;
}

/**
 * The live counter every open petition page polls. Where the petition cache keeps rows (PostgreSQL)
 * it answers from there: every change of a count is announced (docs/operations.md#the-petition-read-cache),
 * and a petition being signed is read again once per signing batch rather than once per poll.
 * Otherwise (SQLite) the row's few columns are read in-process.
 *
 * 404 with the product's text when the petition does not exist, or is out of public view: the count is
 * publicly cacheable, so it is never answered for a hidden or rejected petition, whoever asks.
 */
export async function findPetitionCount(context: AppContext, id: number): Promise<PetitionCount> {
  const row = context.petitionCache.keepsRows ? await context.petitionCache.row(id) : (await countById(context.db, { id })).rows[0];
  if (!row || !isPubliclyVisible(row)) throw new HttpError(404, ERRORS.petitionNotFound);
  return { id: row.id, signatures: context.signatureCounts.live(row.id, row.signature_count), status: row.status as PetitionStatus };
}

export async function listSigners(db: Db, petitionId: number, offset: number, limit: number): Promise<Signer[]> {
  return (await signersPage(db, { petitionId, limit, offset })).rows.map(toSigner);
}

export async function hasSigned(db: Db, petitionId: number, userId: string): Promise<boolean> {
  return (await signatureOf(db, { petitionId, userId })).rows.length > 0;
}

/** Whether staff invalidated this user's signature on the petition (docs/integrity.md#invalidation). */
export async function hasInvalidatedSignature(db: Db, petitionId: number, userId: string): Promise<boolean> {
  return (await invalidatedSignatureOf(db, { petitionId, userId })).rows.length > 0;
}
