/**
 * How `npm run backup` reaches a running SQLite server (docs/operations.md#backups). The server owns
 * its database file (owned-file.ts): no other process can read it while it runs, so the command
 * asks the server to write the copy. The server listens on a Unix socket in a folder only its own
 * user may enter (0700) next to the database; whoever can reach the socket could read the database
 * file anyway. One request a connection, one JSON line each way, validated with zod.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { BackupError } from './backup-files.ts';

const CONTROL_DIR = '.petitions-control';
/** Unix socket paths are limited to about 104–108 bytes depending on the system. */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 8 * 1024;

const BackupRequest = z.strictObject({ backupTo: z.string().min(1).refine((file) => path.isAbsolute(file), 'an absolute path') });
const BackupAnswer = z.discriminatedUnion('ok', [z.strictObject({ ok: z.literal(true) }), z.strictObject({ ok: z.literal(false), error: z.string() })]);

export function backupSocketPath(databaseFile: string): string {
  const absolute = path.resolve(databaseFile);
  return path.join(path.dirname(absolute), CONTROL_DIR, `${path.basename(absolute)}.backup.sock`);
}

export interface BackupSocket {
  close(): Promise<void>;
}

/** Null where Unix sockets cannot serve (Windows, or a path too long): the command then says so. */
export async function startBackupSocket(options: {
  databaseFile: string;
  backup: (file: string) => Promise<void>;
  onError: (error: unknown) => void;
}): Promise<BackupSocket | null> {
  const socketPath = backupSocketPath(options.databaseFile);
  if (process.platform === 'win32' || socketPath.length > MAX_SOCKET_PATH) return null;
  fs.mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(socketPath), 0o700);
  // Left by a server that was killed: this process owns the database, so no live server is behind it.
  fs.rmSync(socketPath, { force: true });

  const server = net.createServer((connection) => {
    let received = '';
    connection.setEncoding('utf8');
    connection.on('error', () => {});
    connection.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_REQUEST_BYTES) return connection.destroy();
      const end = received.indexOf('\n');
      if (end < 0) return;
      connection.removeAllListeners('data');
      const answer = (body: z.infer<typeof BackupAnswer>) => connection.end(`${JSON.stringify(body)}\n`);
      let request: z.infer<typeof BackupRequest>;
      try {
        request = BackupRequest.parse(JSON.parse(received.slice(0, end)));
      } catch {
        return answer({ ok: false, error: 'Bad request: expected {"backupTo": "<absolute path>"}' });
      }
      options.backup(request.backupTo).then(
        () => answer({ ok: true }),
        (error: unknown) => {
          options.onError(error);
          answer({ ok: false, error: (error as Error).message });
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

/** Asks the server that owns `databaseFile` to write a backup to `file`; 'no-server' when none listens. */
export function requestServerBackup(databaseFile: string, file: string): Promise<'done' | 'no-server'> {
  const socketPath = backupSocketPath(databaseFile);
  return new Promise((resolve, reject) => {
    if (process.platform === 'win32' || !fs.existsSync(socketPath)) return resolve('no-server');
    const connection = net.createConnection(socketPath);
    let received = '';
    let connected = false;
    connection.setEncoding('utf8');
    connection.on('connect', () => {
      connected = true;
      connection.write(`${JSON.stringify({ backupTo: path.resolve(file) })}\n`);
    });
    connection.on('data', (chunk: string) => (received += chunk));
    connection.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve('no-server');
      else reject(new BackupError(`The server's backup socket failed: ${error.message}`, { cause: error }));
    });
    connection.on('end', () => {
      const parsed = BackupAnswer.safeParse((() => {
        try {
          return JSON.parse(received.trim());
        } catch {
          return null;
        }
      })());
      if (!parsed.success) return reject(new BackupError('The server answered on its backup socket in an unexpected shape'));
      if (parsed.data.ok) resolve('done');
      else reject(new BackupError(`The server could not write the backup: ${parsed.data.error}`));
    });
  });
}
