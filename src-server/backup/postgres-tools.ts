/**
 * PostgreSQL's own backup tools, pg_dump and pg_restore, run as child processes. They come with
 * the PostgreSQL client package; where they are not on PATH (or in PG_BIN_DIR) the error says so.
 * The password never goes on a command line (other users can read those): it travels in PGPASSWORD.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { BackupError } from './backup-files.ts';

export type PgTool = 'pg_dump' | 'pg_restore';

/** libpq's view of DATABASE_URL: the URL without its password, and the password apart. */
export function libpqTarget(databaseUrl: string): { dbname: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.href, env: password ? { PGPASSWORD: password } : {} };
}

export function runPgTool(tool: PgTool, args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  const binDir = process.env.PG_BIN_DIR;
  const command = binDir ? path.join(binDir, tool) : tool;
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      if ((error as { code?: unknown }).code === 'ENOENT') {
        return reject(
          new BackupError(
            `${tool} was not found${binDir ? ` in PG_BIN_DIR (${binDir})` : ' on PATH'}. Install PostgreSQL's client tools, of the server's major version or newer ` +
              `(Debian/Ubuntu: apt-get install postgresql-client), or set PG_BIN_DIR to the folder that holds ${tool}.`,
            { cause: error },
          ),
        );
      }
      reject(new BackupError(`${tool} failed: ${stderr.trim() || error.message}`, { cause: error }));
    });
  });
}
