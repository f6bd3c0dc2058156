/** Every migration, in order, and running them. Migrations are history: append, never edit one that shipped. */
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { SqlDialectName } from '../dialect.ts';
import { initialMigration } from './0001_initial.ts';
import { classificationIndexesMigration } from './0002_classification_indexes.ts';
import { searchPrefixIndexMigration } from './0003_search_prefix_index.ts';
import { clusteredKeysMigration } from './0004_clustered_keys.ts';
import { firstSignersMigration } from './0005_first_signers.ts';
import { firstSignersAsShownMigration } from './0006_first_signers_as_shown.ts';
import { termClosuresMigration } from './0007_term_closures.ts';
import { petitionCreationsMigration } from './0008_petition_creations.ts';
import { petitionChangesIndexMigration } from './0009_petition_changes_index.ts';
import { firstSignersInBatchMigration } from './0010_first_signers_in_batch.ts';
import { chatMessagesMigration } from './0011_chat_messages.ts';
import { petitionEventsMigration } from './0014_petition_events.ts';
import { moderationMigration } from './0015_moderation.ts';
import { auditMadeAtMigration } from './0016_audit_made_at.ts';
import { signatureIntegrityMigration } from './0017_signature_integrity.ts';
import { petitionChangeNoticesMigration } from './0018_petition_change_notices.ts';
import { webPushMigration } from './0019_web_push.ts';
import { queueAgeingAndPresenceMigration } from './0020_queue_ageing_and_presence.ts';
import { signerRetentionMigration } from './0021_signer_retention.ts';
import { signatureBandsMigration } from './0022_signature_bands.ts';
import { sessionChangeNoticesMigration } from './0023_session_change_notices.ts';
import { sqliteSignatureBandsMigration } from './0024_sqlite_signature_bands.ts';
import { signaturesByTimeMigration } from './0025_signatures_by_time.ts';
import { bandBoundsMigration } from './0026_band_bounds.ts';
import { firstSignersReadMigration } from './0027_first_signers_read.ts';
import type { EngineMigration } from './migration.ts';

export const MIGRATIONS: Readonly<Record<string, EngineMigration>> = {
  '0001_initial': initialMigration,
  '0002_classification_indexes': classificationIndexesMigration,
  '0003_search_prefix_index': searchPrefixIndexMigration,
  '0004_clustered_keys': clusteredKeysMigration,
  '0005_first_signers': firstSignersMigration,
  '0006_first_signers_as_shown': firstSignersAsShownMigration,
  '0007_term_closures': termClosuresMigration,
  '0008_petition_creations': petitionCreationsMigration,
  '0009_petition_changes_index': petitionChangesIndexMigration,
  '0010_first_signers_in_batch': firstSignersInBatchMigration,
  '0011_chat_messages': chatMessagesMigration,
  '0014_petition_events': petitionEventsMigration,
  '0015_moderation': moderationMigration,
  '0016_audit_made_at': auditMadeAtMigration,
  '0017_signature_integrity': signatureIntegrityMigration,
  '0018_petition_change_notices': petitionChangeNoticesMigration,
  '0019_web_push': webPushMigration,
  '0020_queue_ageing_and_presence': queueAgeingAndPresenceMigration,
  '0021_signer_retention': signerRetentionMigration,
  '0022_signature_bands': signatureBandsMigration,
  '0023_session_change_notices': sessionChangeNoticesMigration,
  '0024_sqlite_signature_bands': sqliteSignatureBandsMigration,
  '0025_signatures_by_time': signaturesByTimeMigration,
  '0026_band_bounds': bandBoundsMigration,
  '0027_first_signers_read': firstSignersReadMigration,
};

/** The migrations in one engine's form, keyed by name as Kysely's migrator wants them. */
export function migrationsFor(dialect: SqlDialectName): Record<string, Migration> {
  return Object.fromEntries(Object.entries(MIGRATIONS).map(([name, migration]) => [name, migration[dialect]]));
}

/** Applies every migration not yet applied; returns the names it applied, in order. */
export async function migrateToLatest<DB>(db: Kysely<DB>, dialect: SqlDialectName): Promise<string[]> {
  const { error, results } = await migrator(db, dialect).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations this server knows that the database has not applied (readiness: none). */
export async function pendingMigrations<DB>(db: Kysely<DB>, dialect: SqlDialectName): Promise<string[]> {
  const known = await migrator(db, dialect).getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}

/**
 * Numbers are reserved per feature and features are merged in any order, so a database may have run
 * later migrations before an earlier-numbered one arrives (0016 and up before 0015): every migration
 * here stands alone, so a pending one is applied whatever ran after it.
 */
function migrator<DB>(db: Kysely<DB>, dialect: SqlDialectName): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(dialect) };
  return new Migrator({ db, provider, allowUnorderedMigrations: true });
}
