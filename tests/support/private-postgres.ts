/**
 * A PostgreSQL server of a test's own: a fresh cluster (initdb) in a temporary folder, on a free
 * port of 127.0.0.1, that the test may stop, crash and start again. Restarting the machine's shared
 * PostgreSQL (127.0.0.1:5432) would break every other test using it at the same moment; this one
 * is the same binaries, so a restart here is a real PostgreSQL restart and touches nobody else.
 * As root (CI), the server runs as the `postgres` user, as PostgreSQL refuses to run as root.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './stack.ts';

const run = promisify(execFile);

/** The server binaries: `pg_config --bindir` when it answers, else Debian's newest /usr/lib/postgresql/N/bin. */
export async function postgresBinDir(): Promise<string> {
  try {
    const { stdout } = await run('pg_config', ['--bindir']);
    const dir = stdout.trim();
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // No pg_config on PATH: look where Debian puts the server.
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found: install the postgresql package');
}

export type StopMode = 'fast' | 'immediate';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  adminUrl: string;
  port: number;
  bin: string;
  /** `fast`: connections are terminated and open transactions rolled back; `immediate`: a crash (recovery from WAL on the next start). */
  stop(mode: StopMode): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (if running) and removes its folder. */
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout), Number((await run('id', ['-g', 'postgres'])).stdout));
  const pgTool = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);

  await pgTool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c shared_buffers=16MB',
    '-c max_connections=40',
  ].join(' ');
  const start = async () => {
    await pgTool('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  const stop = async (mode: StopMode) => {
    await pgTool('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  };
  await start();
  let running = true;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    bin,
    async stop(mode) {
      await stop(mode);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop('immediate').catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
