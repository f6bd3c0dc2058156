import { sql, type Kysely, type RawBuilder } from 'kysely';
import { SIGNERS_PREVIEW_COUNT } from '../../../src-shared/domain/constants.ts';
import { installFirstSignersPostgres } from './first-signers-postgres.ts';
import type { EngineMigration } from './migration.ts';

/**
 * SQLite: every petition page shows the first signers, and reading them was a second random seek
 * per page view, the largest single cost of the busiest read. The petition row now carries them
 * (`first_signers`, a JSON array, oldest first), kept by triggers on `signatures`, so every writer
 * (signing, creation, seeds, fixtures) keeps them right without knowing about them. A new signature
 * is appended while there is room (signatures arrive in time order); only one dated before the last
 * listed, or the removal of one that may be listed, rebuilds the list from the rows. The count is
 * fixed here; changing the constant needs a new migration. (0006 changes what a signer holds.)
 *
 * PostgreSQL: the same column, kept by a trigger function (first-signers-postgres.ts).
 */
export const firstSignersMigration: EngineMigration = {
  sqlite: {
    async up(db: Kysely<unknown>) {
      await db.transaction().execute(async (trx) => {
        await sql`ALTER TABLE petitions ADD COLUMN first_signers text NOT NULL DEFAULT '[]'`.execute(trx);
        await installFirstSigners(trx, (column) =>
          sql`json_object('id', ${column('user_id')}, 'username', ${column('username')}, 'displayName', ${column('display_name')}, 'signed_at', ${column('signed_at')})`,
        );
      });
    },
  },
  postgres: {
    async up(db: Kysely<unknown>) {
      // Kysely runs PostgreSQL's migrations inside one transaction (its DDL is transactional).
      await sql`ALTER TABLE petitions ADD COLUMN first_signers text NOT NULL DEFAULT '[]'`.execute(db);
      await installFirstSignersPostgres(db, `json_build_object('id', s.user_id, 'username', s.username, 'displayName', s.display_name, 'signed_at', s.signed_at)`);
    },
  },
};

/** The JSON object stored for one signature, given how to name its columns (in a trigger, NEW.x or OLD.x). */
export type StoredSigner = (column: (name: string) => RawBuilder<unknown>) => RawBuilder<string>;

/**
 * Creates the two triggers that keep `first_signers` (none may exist) and fills the column from the
 * signature rows. Every stored signer needs `id` and `signed_at`: they decide where a row sorts.
 */
export async function installFirstSigners(trx: Kysely<unknown>, signer: StoredSigner): Promise<void> {
  const NEW = (name: string) => sql.raw(`NEW.${name}`);
  await sql`UPDATE petitions SET first_signers = ${firstSignersOf(sql`petitions.id`, signer)}`.execute(trx);
  // One lookup decides: a new signature newer than every listed one is appended while there
  // is room (the common case: signatures arrive in time order); one dated before the last
  // listed (imports, fixtures) rebuilds the list from the rows; otherwise nothing changes.
  const appends = sql`(json_array_length(first_signers) = 0 OR (json_array_length(first_signers) < ${limit} AND ${isAfterLastListed(sql`NEW`)}))`;
  await sql`CREATE TRIGGER signatures_first_signers_insert AFTER INSERT ON signatures
    WHEN (SELECT ${appends} OR NOT ${isAfterLastListed(sql`NEW`)} FROM petitions WHERE id = NEW.petition_id)
    BEGIN
      UPDATE petitions
        SET first_signers = CASE WHEN ${appends}
          THEN json_insert(first_signers, '$[#]', ${signer(NEW)})
          ELSE ${firstSignersOf(sql`NEW.petition_id`, signer)} END
        WHERE id = NEW.petition_id;
    END`.execute(trx);
  // A removed signature that may be listed (not after the last listed one) rebuilds the list.
  await sql`CREATE TRIGGER signatures_first_signers_delete AFTER DELETE ON signatures
    WHEN (SELECT json_array_length(first_signers) > 0 AND NOT ${isAfterLastListed(sql`OLD`)} FROM petitions WHERE id = OLD.petition_id)
    BEGIN
      UPDATE petitions SET first_signers = ${firstSignersOf(sql`OLD.petition_id`, signer)} WHERE id = OLD.petition_id;
    END`.execute(trx);
}

const limit = sql.lit(SIGNERS_PREVIEW_COUNT);

/** The signature row `row` (NEW or OLD) sorts after the last listed signer: (signed_at, user_id) order. */
function isAfterLastListed(row: RawBuilder<unknown>): RawBuilder<boolean> {
  const lastAt = sql`json_extract(first_signers, '$[#-1].signed_at')`;
  return sql<boolean>`(${row}.signed_at > ${lastAt} OR (${row}.signed_at = ${lastAt} AND ${row}.user_id > json_extract(first_signers, '$[#-1].id')))`;
}

/** The first signers of one petition as a JSON array, in the signers list's order (the covering index's). */
function firstSignersOf(petitionId: RawBuilder<unknown>, signer: StoredSigner): RawBuilder<string> {
  return sql<string>`(SELECT coalesce(json_group_array(${signer((name) => sql.raw(name))}), '[]')
    FROM (SELECT user_id, username, display_name, signed_at FROM signatures WHERE petition_id = ${petitionId}
          ORDER BY signed_at, user_id LIMIT ${limit}))`;
}
