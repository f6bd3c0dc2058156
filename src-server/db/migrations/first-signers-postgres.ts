/**
 * PostgreSQL's form of the stored first signers (0005, 0006): the same column, kept by statement
 * triggers on `signatures` with the same rule as SQLite's row triggers. A statement (a signing batch
 * inserts many rows at once) touches only the petitions whose list may change: a list with room, or
 * a new signature that sorts before the last listed one (for removals: one that may be listed). Once
 * a petition has ten signers, signing in time order never writes its row for this. Those petitions
 * are locked first, in id order, and their lists rebuilt from the rows in a statement of its own,
 * whose snapshot then includes every signature committed before the locks were granted (READ
 * COMMITTED), so concurrent writers on several nodes cannot overwrite each other's entries.
 */
import { sql, type Kysely } from 'kysely';
import { SIGNERS_PREVIEW_COUNT } from '../../../src-shared/domain/constants.ts';

/** SQL building one signer's JSON object from a signatures row named `s` (`json_build_object` keeps key order). */
export type PostgresSigner = string;

export async function installFirstSignersPostgres(db: Kysely<unknown>, signer: PostgresSigner): Promise<void> {
  const limit = SIGNERS_PREVIEW_COUNT;
  const rebuilt = `(
      SELECT coalesce(json_agg(${signer} ORDER BY s.signed_at, s.user_id)::text, '[]')
      FROM (SELECT user_id, username, display_name, signed_at FROM signatures WHERE petition_id = petitions.id
            ORDER BY signed_at, user_id LIMIT ${limit}) s)`;
  // Row `row` sorts after the last listed signer: (signed_at, user_id) order, byte-wise as in SQLite.
  const afterLast = (row: string) => `((${row}.signed_at COLLATE "C", ${row}.user_id COLLATE "C") >
      ((petitions.first_signers::json -> -1 ->> 'signed_at') COLLATE "C", (petitions.first_signers::json -> -1 ->> 'id') COLLATE "C"))`;
  // `= ANY (ARRAY(...))` makes the planner look the petitions up by key (a transition table has no
  // statistics: with `IN (SELECT ...)` it may scan every petition).
  const affected = (rows: string, mayChange: string) => `petitions.id = ANY (ARRAY(SELECT DISTINCT petition_id FROM ${rows}))
      AND EXISTS (SELECT 1 FROM ${rows} AS changed WHERE changed.petition_id = petitions.id AND (${mayChange}))`;
  const insertChanges = affected('inserted', `json_array_length(petitions.first_signers::json) < ${limit} OR NOT ${afterLast('changed')}`);
  const deleteChanges = affected('removed', `json_array_length(petitions.first_signers::json) > 0 AND NOT ${afterLast('changed')}`);
  const functionFor = (name: string, changes: string) => `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM petitions WHERE ${changes} ORDER BY id FOR UPDATE;
        UPDATE petitions SET first_signers = ${rebuilt} WHERE ${changes};
        RETURN NULL;
      END $$`;

  await sql.raw(functionFor('signatures_first_signers_insert', insertChanges)).execute(db);
  await sql.raw(functionFor('signatures_first_signers_delete', deleteChanges)).execute(db);
  await sql`DROP TRIGGER IF EXISTS signatures_first_signers_insert ON signatures`.execute(db);
  await sql`DROP TRIGGER IF EXISTS signatures_first_signers_delete ON signatures`.execute(db);
  await sql`CREATE TRIGGER signatures_first_signers_insert AFTER INSERT ON signatures
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION signatures_first_signers_insert()`.execute(db);
  await sql`CREATE TRIGGER signatures_first_signers_delete AFTER DELETE ON signatures
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION signatures_first_signers_delete()`.execute(db);
  await sql.raw(`UPDATE petitions SET first_signers = ${rebuilt}`).execute(db);
}
