/**
 * `npm run backup -- --out FILE`: a consistent backup of the database named by DATABASE_URL (or
 * DATA_DIR's SQLite file, as the server reads them), taken while the server runs and serves, then
 * checked. docs/operations.md#backups.
 *   SQLite: the running server writes the copy (it owns the file); with no server, this command does.
 *   PostgreSQL: pg_dump's custom format, checked with pg_restore --list.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { BackupError } from '../src-server/backup/backup-files.ts';
import { requestServerBackup } from '../src-server/backup/backup-socket.ts';
import { vacuumInto } from '../src-server/backup/sqlite-backup.ts';
import { writeBackup, type BackupSource } from '../src-server/backup/write-backup.ts';
import { loadConfig } from '../src-server/config.ts';
import { sqliteFile } from '../src-server/db/database.ts';
import { DatabaseInUseError, openOwnedSqlite } from '../src-server/db/owned-file.ts';
import { isPostgresUrl } from '../src-server/db/postgres-database.ts';

const USAGE = 'Usage: npm run backup -- --out FILE   (the database is DATABASE_URL, or DATA_DIR/petitions.db)';

function sqliteSource(databaseFile: string): { source: BackupSource; how: () => string } {
  let how = 'by this command (no server was running)';
  return {
    how: () => how,
    source: {
      dialect: 'sqlite',
      async dump(file) {
        if ((await requestServerBackup(databaseFile, file)) === 'done') {
          how = 'by the running server';
          return;
        }
        let owned;
        try {
          owned = openOwnedSqlite(databaseFile);
        } catch (error) {
          if (error instanceof DatabaseInUseError) {
            throw new BackupError(
              `A server holds ${databaseFile} but does not answer on its backup socket (an older version, or a folder path too long for a socket): use its scheduled backups (BACKUP_DIR) or stop it first`,
              { cause: error },
            );
          }
          throw error;
        }
        try {
          vacuumInto(owned.sqlite, file);
        } finally {
          owned.sqlite.close();
        }
      },
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: false });
  if (values.help || !values.out) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const { databaseUrl } = loadConfig();
  let source: BackupSource;
  let how = () => 'with pg_dump';
  if (isPostgresUrl(databaseUrl)) {
    source = { dialect: 'postgres', databaseUrl };
  } else {
    const file = sqliteFile(databaseUrl);
    if (file === ':memory:' || !fs.existsSync(file)) throw new BackupError(`There is no database at ${file} (DATABASE_URL / DATA_DIR) to back up`);
    ({ source, how } = sqliteSource(file));
  }
  const written = await writeBackup(source, values.out);
  console.log(`Wrote ${written.file} (${(written.bytes / 1024).toFixed(0)} KiB, ${source.dialect === 'postgres' ? 'PostgreSQL custom format' : 'SQLite'}) ${how()}.`);
  console.log(`Checked: ${written.summary.description}.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof BackupError ? `Backup failed: ${error.message}` : error);
  process.exit(1);
});
