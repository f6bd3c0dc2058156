import { sql, type Kysely } from 'kysely';
import { installFirstSigners } from './0005_first_signers.ts';
import { installFirstSignersPostgres } from './first-signers-postgres.ts';
import type { EngineMigration } from './migration.ts';

/**
 * SQLite: the stored first signers take exactly the API's shape (Signer, with its avatar path), in
 * the API's key order, so a petition page copies them into its reply as they are instead of parsing
 * and re-serialising ten objects per view. The triggers of 0005 are replaced and every list is
 * rebuilt. The avatar path is written out here, as migrations are history: a change to
 * AVATAR_PATH_PREFIX needs a new migration (first-signers.test.ts compares the two).
 * PostgreSQL: the trigger function is replaced the same way.
 */
export const firstSignersAsShownMigration: EngineMigration = {
  sqlite: {
    async up(db: Kysely<unknown>) {
      await db.transaction().execute(async (trx) => {
        await sql`DROP TRIGGER signatures_first_signers_insert`.execute(trx);
        await sql`DROP TRIGGER signatures_first_signers_delete`.execute(trx);
        await installFirstSigners(trx, (column) =>
          sql`json_object('id', ${column('user_id')}, 'username', ${column('username')}, 'displayName', ${column('display_name')},
            'avatar', '/avatar/' || ${column('user_id')}, 'signed_at', ${column('signed_at')})`,
        );
      });
    },
  },
  postgres: {
    async up(db: Kysely<unknown>) {
      // Kysely runs PostgreSQL's migrations inside one transaction (its DDL is transactional).
      await installFirstSignersPostgres(
        db,
        `json_build_object('id', s.user_id, 'username', s.username, 'displayName', s.display_name, 'avatar', '/avatar/' || s.user_id, 'signed_at', s.signed_at)`,
      );
    },
  },
};
