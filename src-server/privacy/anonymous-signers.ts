/**
 * Anonymising signatures in place (docs/privacy.md#what-anonymised-means): the row stays, so the
 * petition's count, its recount and its chart of signatures over time are unchanged, but its user id
 * becomes a fresh random anonymous id (privacy-constants.ts) and its names are replaced. Each row
 * gets its own id: nothing links two anonymised signatures to one member, on one petition or across
 * petitions. Used by signer retention (initials stay) and by account deletion ("Deleted member").
 */
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { SIGNERS_PREVIEW_COUNT } from '../../src-shared/domain/constants.ts';
import { ANONYMOUS_USER_ID_LENGTH } from '../../src-shared/domain/privacy-constants.ts';
import { announcePetitionsChanged } from '../db/change-notices.ts';
import { dialectOf, type SqlDialectName } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { toSigner } from '../petitions/signer-view.ts';

/** 20 random digits, the first not 0: above every 64-bit ROBLOX id, and unguessable. */
export function newAnonymousUserId(): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < ANONYMOUS_USER_ID_LENGTH) digits += String(randomInt(0, 1_000_000)).padStart(6, '0');
  return digits.slice(0, ANONYMOUS_USER_ID_LENGTH);
}

/** SQL condition on a user id column: not anonymised yet (a ROBLOX id has at most 19 digits). */
export const NOT_ANONYMOUS_MAX_LENGTH = ANONYMOUS_USER_ID_LENGTH - 1;

/** Three parameters a row: well under both engines' limits. */
const ROWS_PER_STATEMENT = 500;

export type SignatureTable = 'signatures' | 'invalidated_signatures';

export interface NamedSignature {
  user_id: string;
  username: string;
  display_name: string;
}

/**
 * Gives each of these signatures of one petition an anonymous id and the name `shownName` returns
 * for it (its username is emptied). Returns how many rows changed: a row another writer already
 * anonymised is simply not there under its old id any more.
 */
export async function anonymiseSignatures(
  trx: Db,
  dialect: SqlDialectName,
  table: SignatureTable,
  petitionId: number,
  rows: readonly NamedSignature[],
  shownName: (row: NamedSignature) => string,
): Promise<number> {
  let changed = 0;
  if (dialect === 'sqlite') {
    // In process, a key update per row is cheapest (one UPDATE … FROM a list planned worse: several times slower here).
    for (const row of rows) {
      const result = await trx
        .updateTable(table)
        .set({ user_id: newAnonymousUserId(), username: '', display_name: shownName(row) })
        .where('petition_id', '=', petitionId)
        .where('user_id', '=', row.user_id)
        .executeTakeFirst();
      changed += Number(result.numUpdatedRows);
    }
    return changed;
  }
  // PostgreSQL: one statement per chunk, not per row: every statement is a round trip (npm run bench:retention).
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const changes = sql.join(
      rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => sql`(${row.user_id}, ${newAnonymousUserId()}, ${shownName(row)})`),
    );
    const result = await sql`WITH changes (old_id, new_id, shown_name) AS (VALUES ${changes})
      UPDATE ${sql.table(table)} SET user_id = changes.new_id, username = '', display_name = changes.shown_name
      FROM changes WHERE ${sql.ref(`${table}.petition_id`)} = ${petitionId} AND ${sql.ref(`${table}.user_id`)} = changes.old_id`.execute(trx);
    changed += Number(result.numAffectedRows ?? 0);
  }
  return changed;
}

/**
 * After anonymising a petition's signatures in place, its page must show the new names. On SQLite
 * the stored first signers are written again from the rows: the triggers that keep them (migrations
 * 0005, 0006) run on inserts and deletions only. The list holds the same objects the signers endpoint
 * answers (toSigner), in the same order. On PostgreSQL they are read from the rows (migration 0027),
 * so the petition is only announced as changed: every node's petition cache reads it again.
 */
export async function refreshFirstSigners(trx: Db, petitionId: number): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await announcePetitionsChanged(trx, [petitionId]);
    return;
  }
  const rows = await trx
    .selectFrom('signatures')
    .select(['user_id', 'username', 'display_name', 'signed_at'])
    .where('petition_id', '=', petitionId)
    .orderBy('signed_at')
    .orderBy('user_id')
    .limit(SIGNERS_PREVIEW_COUNT)
    .execute();
  await sql`UPDATE petitions SET first_signers = ${JSON.stringify(rows.map(toSigner))} WHERE id = ${petitionId}`.execute(trx);
}
