/**
 * The running server's part in backups (docs/operations.md#backups): how it writes one of its own
 * database, the schedule (BACKUP_DIR), and, on SQLite, the socket `npm run backup` asks it through.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { OpenDatabase } from '../db/dialect.ts';
import { startBackupSocket } from './backup-socket.ts';
import { createBackupScheduler, startBackupScheduler } from './backup-scheduler.ts';
import { vacuumIntoOnWorker } from './sqlite-backup.ts';
import type { BackupSource } from './write-backup.ts';

/** Null for a database with no file (SQLite in memory). */
export function serverBackupSource(database: OpenDatabase, databaseUrl: string): BackupSource | null {
  if (database.dialect === 'postgres') return { dialect: 'postgres', databaseUrl };
  const file = database.sqliteFile;
  return file ? { dialect: 'sqlite', dump: (out) => vacuumIntoOnWorker(file.connectionName, out) } : null;
}

/** Before the app is ready: the schedule's hooks, and the SQLite backup socket (closed with the app). */
export async function startServerBackups(app: FastifyInstance, context: AppContext, database: OpenDatabase): Promise<void> {
  const source = serverBackupSource(database, context.config.databaseUrl);
  if (!source) return;
  const { dir, intervalMs, keep } = context.config.backups;
  if (dir) startBackupScheduler(app, createBackupScheduler(context, { dir, intervalMs, keep, source }), intervalMs);
  if (database.sqliteFile && database.exclusive && source.dialect === 'sqlite') {
    const socket = await startBackupSocket({
      databaseFile: database.sqliteFile.path,
      backup: source.dump,
      onError: (error) => app.log.error({ err: error }, 'a backup asked for on the backup socket failed'),
    });
    if (!socket) app.log.warn('No backup socket (Windows, or a database path too long for one): `npm run backup` works only while the server is stopped');
    if (socket) app.addHook('onClose', () => socket.close());
  }
}
