/**
 * `npm run restore -- FILE`: replaces the database named by DATABASE_URL (or DATA_DIR's SQLite
 * file) with a backup that `npm run backup` or the schedule wrote. Refused while a server uses the
 * database; the backup is checked before anything is touched; the previous database is kept aside.
 * docs/operations.md#restoring.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { BackupError } from '../src-server/backup/backup-files.ts';
import { restorePostgres } from '../src-server/backup/postgres-restore.ts';
import { restoreSqlite } from '../src-server/backup/sqlite-restore.ts';
import { loadConfig } from '../src-server/config.ts';
import { sqliteFile } from '../src-server/db/database.ts';
import { isPostgresUrl } from '../src-server/db/postgres-database.ts';

const USAGE = 'Usage: npm run restore -- FILE   (into DATABASE_URL, or DATA_DIR/petitions.db; stop every server first)';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { help: { type: 'boolean' } }, allowPositionals: true });
  if (values.help || positionals.length !== 1) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const backup = positionals[0]!;
  if (!fs.existsSync(backup)) throw new BackupError(`There is no file ${backup}`);
  const { databaseUrl } = loadConfig();
  const postgres = isPostgresUrl(databaseUrl);
  const target = postgres ? new URL(databaseUrl).pathname.slice(1) : sqliteFile(databaseUrl);
  if (target === ':memory:') throw new BackupError('DATABASE_URL names an in-memory database: there is nothing to restore into');
  const result = postgres ? await restorePostgres(databaseUrl, backup) : restoreSqlite(target, backup);
  console.log(`Restored ${backup} into ${postgres ? `the PostgreSQL database ${target}` : target}: ${result.summary.description}.`);
  if (result.previous) {
    console.log(
      postgres
        ? `The previous database is kept as ${result.previous}; once you are satisfied: DROP DATABASE "${result.previous}";`
        : `The previous database is kept as ${result.previous}; delete it once you are satisfied.`,
    );
  }
  console.log('Start the server(s) again: they apply any newer migrations on start.');
}

main().catch((error: unknown) => {
  console.error(error instanceof BackupError ? `Restore stopped: ${error.message}` : error);
  process.exit(1);
});
