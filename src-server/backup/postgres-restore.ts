/**
 * Restoring a pg_dump archive into DATABASE_URL's database (docs/operations.md#restoring):
 * 1. `pg_restore --list` reads the archive (nothing touched yet);
 * 2. no other session may be connected to the database (every server node stopped), else refused;
 * 3. the archive is restored into a new database `<name>_restoring_<time>` in one transaction;
 * 4. the database is closed to new connections, checked once more for sessions, renamed to
 *    `<name>_before_restore_<time>` (kept), and the restored one takes its name.
 * A failure before the renames leaves the database as it was and drops the half-restored one.
 */
import pg from 'pg';
import { BackupError, backupKindOf, fileStamp } from './backup-files.ts';
import { checkPgDump } from './postgres-backup.ts';
import { libpqTarget, runPgTool } from './postgres-tools.ts';
import type { RestoreResult } from './sqlite-restore.ts';

/** PostgreSQL names are at most 63 bytes. */
const MAX_NAME = 63;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function withDatabase(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.href;
}

function derivedName(base: string, suffix: string): string {
  return `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
}

async function otherSessions(admin: pg.Client, database: string): Promise<string[]> {
  const { rows } = await admin.query<{ application_name: string; client_addr: string | null }>(
    'SELECT application_name, client_addr::text AS client_addr FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return rows.map((row) => `${row.application_name || 'unnamed client'}${row.client_addr ? ` from ${row.client_addr}` : ''}`);
}

function refuseWhileUsed(database: string, sessions: string[]): never {
  throw new BackupError(
    `${sessions.length} session(s) are connected to the database ${database} (${sessions.join(', ')}): stop every server node first (nothing was changed)`,
  );
}

export async function restorePostgres(databaseUrl: string, backupFile: string, now = new Date()): Promise<RestoreResult> {
  const kind = backupKindOf(backupFile);
  if (kind === 'sqlite') throw new BackupError(`${backupFile} is a SQLite database; DATABASE_URL names a PostgreSQL database`);
  if (kind !== 'postgres') throw new BackupError(`${backupFile} is not a backup this server wrote (neither a pg_dump archive nor a SQLite database)`);
  const summary = await checkPgDump(backupFile);

  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!database) throw new BackupError('DATABASE_URL names no database');
  const stamp = fileStamp(now).toLowerCase();
  const restoring = derivedName(database, `_restoring_${stamp}`);
  const previous = derivedName(database, `_before_restore_${stamp}`);

  // The server's maintenance database, from which databases can be created and renamed.
  const admin = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres'), application_name: 'petitions-restore' });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount === 1;
    if (exists) {
      const sessions = await otherSessions(admin, database);
      if (sessions.length) refuseWhileUsed(database, sessions);
    }
    await admin.query(`CREATE DATABASE ${quote(restoring)} TEMPLATE template0`);
    try {
      const target = libpqTarget(withDatabase(databaseUrl, restoring));
      await runPgTool(
        'pg_restore',
        ['--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', '--no-password', `--dbname=${target.dbname}`, backupFile],
        target.env,
      );
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${quote(restoring)}`);
      throw error;
    }

    if (!exists) {
      await admin.query(`ALTER DATABASE ${quote(restoring)} RENAME TO ${quote(database)}`);
      return { summary, previous: null };
    }
    // No new sessions from here on; one that slipped in since the first look stops the restore.
    await admin.query(`ALTER DATABASE ${quote(database)} ALLOW_CONNECTIONS false`);
    const late = await otherSessions(admin, database);
    if (late.length) {
      await admin.query(`ALTER DATABASE ${quote(database)} ALLOW_CONNECTIONS true`);
      await admin.query(`DROP DATABASE IF EXISTS ${quote(restoring)}`);
      refuseWhileUsed(database, late);
    }
    await admin.query(`ALTER DATABASE ${quote(database)} RENAME TO ${quote(previous)}`);
    try {
      await admin.query(`ALTER DATABASE ${quote(restoring)} RENAME TO ${quote(database)}`);
    } catch (error) {
      await admin.query(`ALTER DATABASE ${quote(previous)} RENAME TO ${quote(database)}`);
      await admin.query(`ALTER DATABASE ${quote(database)} ALLOW_CONNECTIONS true`);
      throw error;
    }
    // The previous database stays readable for a look, and droppable, until the operator removes it.
    await admin.query(`ALTER DATABASE ${quote(previous)} ALLOW_CONNECTIONS true`);
    return { summary, previous };
  } finally {
    await admin.end();
  }
}
