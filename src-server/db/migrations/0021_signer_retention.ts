import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EngineMigration } from './migration.ts';

/**
 * Signer retention (docs/privacy.md#signer-retention): the job walks closed petitions in the order
 * they closed, from a cursor (closed_at, id) kept in site_settings, and anonymises the signers of
 * those closed longer than SIGNER_RETENTION_MONTHS (privacy/signer-retention.ts). This index is that
 * walk: only petitions with a closure time (reopening one clears it), so each batch starts with a
 * key lookup past the cursor instead of a scan of every closed petition ever anonymised.
 */
const portable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('petitions_closed')
      .on('petitions')
      .columns(['closed_at', 'id'])
      .where(sql.ref('closed_at'), 'is not', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('petitions_closed').execute();
  },
};

/** A partial index both engines write the same way. */
export const signerRetentionMigration: EngineMigration = { sqlite: portable, postgres: portable };
