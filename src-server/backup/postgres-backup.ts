/**
 * PostgreSQL backups (docs/operations.md#backups): `pg_dump` in its custom format reads the whole
 * database in one snapshot (a consistent copy while nodes keep writing), and `pg_restore --list`
 * checks that the file is a complete archive of this application's database.
 */
import { BackupError } from './backup-files.ts';
import { libpqTarget, runPgTool } from './postgres-tools.ts';
import type { BackupSummary } from './sqlite-backup.ts';

export async function pgDump(databaseUrl: string, file: string): Promise<void> {
  const target = libpqTarget(databaseUrl);
  await runPgTool('pg_dump', ['--format=custom', '--no-password', `--file=${file}`, `--dbname=${target.dbname}`], target.env);
}

/** Reads the archive's table of contents; throws when pg_restore cannot, or when it holds no petitions table. */
export async function checkPgDump(file: string): Promise<BackupSummary> {
  const { stdout } = await runPgTool('pg_restore', ['--list', file]);
  const entries = stdout.split('\n').filter((line) => line.trim() && !line.startsWith(';'));
  const tables = entries.filter((line) => / TABLE DATA /.test(line)).map((line) => line.trim().split(/\s+/).at(-2) ?? '');
  if (!tables.includes('petitions') || !tables.includes('kysely_migration')) {
    throw new BackupError(`${file} is a PostgreSQL archive but not of a petitions database (no petitions or migration table)`);
  }
  return { description: `pg_restore reads it: ${entries.length} entries, data for ${tables.length} tables` };
}
