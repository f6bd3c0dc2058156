import { sql, type Kysely } from 'kysely';
import { SIGNERS_PREVIEW_COUNT } from '../../../src-shared/domain/constants.ts';
import { unchanged, type EngineMigration } from './migration.ts';

/**
 * PostgreSQL: a signing batch (petitions/signing-postgres.ts) already locks its petitions and
 * rewrites each one's count, so it rewrites the first signers in that same UPDATE instead of letting
 * the statement triggers of 0005/0006 update the row first (two new row versions, each with every
 * index of petitions, per signed petition). The batch says so with a transaction-local setting,
 * which the triggers' WHEN skips on; every other writer of signatures keeps the triggers.
 * `petition_first_signers` is the triggers' rebuild (0006's shape) as a function the batch calls.
 * SQLite: unchanged (one writer, row triggers that touch only the listed rows).
 */
const FIRST_SIGNERS_SETTING = 'petitions.first_signers';
const FIRST_SIGNERS_WRITTEN_BY_CALLER = 'written_by_caller';

export const firstSignersInBatchMigration: EngineMigration = {
  sqlite: unchanged,
  postgres: {
    async up(db: Kysely<unknown>) {
      await sql.raw(`CREATE FUNCTION petition_first_signers(petition integer) RETURNS text LANGUAGE sql STABLE AS $$
        SELECT coalesce(json_agg(json_build_object('id', s.user_id, 'username', s.username, 'displayName', s.display_name,
                 'avatar', '/avatar/' || s.user_id, 'signed_at', s.signed_at) ORDER BY s.signed_at, s.user_id)::text, '[]')
        FROM (SELECT user_id, username, display_name, signed_at FROM signatures WHERE petition_id = petition
              ORDER BY signed_at, user_id LIMIT ${SIGNERS_PREVIEW_COUNT}) s $$`).execute(db);
      const skip = `WHEN (current_setting('${FIRST_SIGNERS_SETTING}', true) IS DISTINCT FROM '${FIRST_SIGNERS_WRITTEN_BY_CALLER}')`;
      await sql`DROP TRIGGER signatures_first_signers_insert ON signatures`.execute(db);
      await sql`DROP TRIGGER signatures_first_signers_delete ON signatures`.execute(db);
      await sql.raw(`CREATE TRIGGER signatures_first_signers_insert AFTER INSERT ON signatures
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT ${skip} EXECUTE FUNCTION signatures_first_signers_insert()`).execute(db);
      await sql.raw(`CREATE TRIGGER signatures_first_signers_delete AFTER DELETE ON signatures
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT ${skip} EXECUTE FUNCTION signatures_first_signers_delete()`).execute(db);
    },
  },
};
