/**
 * PostgreSQL's form of the stored first signers (0005, 0006): the same column, kept by a trigger
 * function on `signatures` with the same rule as SQLite's triggers. A new signature that sorts after
 * the last listed one, with the list full, touches nothing (the common case once a petition has ten
 * signers, so signing never writes the petition row for this); otherwise the petition row is locked
 * and the list rebuilt from the rows in a statement of its own, whose snapshot then includes every
 * signature committed before the lock was granted (READ COMMITTED), so concurrent first signers on
 * several nodes cannot overwrite each other's entry.
 */
import { sql, type Kysely } from 'kysely';
import { SIGNERS_PREVIEW_COUNT } from '../../../src-shared/domain/constants.ts';

/** SQL building one signer's JSON object from a signatures row named `s` (`json_build_object` keeps key order). */
export type PostgresSigner = string;

export async function installFirstSignersPostgres(db: Kysely<unknown>, signer: PostgresSigner): Promise<void> {
  const limit = SIGNERS_PREVIEW_COUNT;
  const rebuild = (petitionId: string) => `
    UPDATE petitions SET first_signers = (
      SELECT coalesce(json_agg(${signer} ORDER BY s.signed_at, s.user_id)::text, '[]')
      FROM (SELECT user_id, username, display_name, signed_at FROM signatures WHERE petition_id = ${petitionId}
            ORDER BY signed_at, user_id LIMIT ${limit}) s)
    WHERE id = ${petitionId};`;
  // The row sorts after the last listed signer: (signed_at, user_id) order, byte-wise as in SQLite.
  const afterLast = (row: string) => `(${row}.signed_at COLLATE "C" > last_at COLLATE "C"
      OR (${row}.signed_at = last_at AND ${row}.user_id COLLATE "C" > last_id COLLATE "C"))`;
  const readLast = (petitionId: string) => `
    SELECT first_signers::json INTO listed FROM petitions WHERE id = ${petitionId};
    IF listed IS NULL THEN RETURN NULL; END IF;
    listed_count := json_array_length(listed);
    last_at := listed -> (listed_count - 1) ->> 'signed_at';
    last_id := listed -> (listed_count - 1) ->> 'id';`;
  const declarations = 'DECLARE listed json; listed_count integer; last_at text; last_id text;';

  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION signatures_first_signers_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      ${declarations}
      BEGIN
        ${readLast('NEW.petition_id')}
        IF listed_count >= ${limit} AND ${afterLast('NEW')} THEN RETURN NULL; END IF;
        PERFORM 1 FROM petitions WHERE id = NEW.petition_id FOR UPDATE;
        ${rebuild('NEW.petition_id')}
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION signatures_first_signers_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      ${declarations}
      BEGIN
        ${readLast('OLD.petition_id')}
        IF listed_count = 0 OR ${afterLast('OLD')} THEN RETURN NULL; END IF;
        PERFORM 1 FROM petitions WHERE id = OLD.petition_id FOR UPDATE;
        ${rebuild('OLD.petition_id')}
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql`DROP TRIGGER IF EXISTS signatures_first_signers_insert ON signatures`.execute(db);
  await sql`DROP TRIGGER IF EXISTS signatures_first_signers_delete ON signatures`.execute(db);
  await sql`CREATE TRIGGER signatures_first_signers_insert AFTER INSERT ON signatures FOR EACH ROW EXECUTE FUNCTION signatures_first_signers_insert()`.execute(db);
  await sql`CREATE TRIGGER signatures_first_signers_delete AFTER DELETE ON signatures FOR EACH ROW EXECUTE FUNCTION signatures_first_signers_delete()`.execute(db);
  await sql.raw(rebuild('petitions.id').replace('WHERE id = petitions.id;', '')).execute(db);
}
