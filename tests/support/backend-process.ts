/**
 * Runs the real backend as a child process on a fixed SQLite file and port, with the local OpenID
 * provider in the calling process, so a test can SIGKILL the backend and start it again on the same
 * database (sessions, idempotency keys and audit rows survive, as they would in production).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../../src-server/config.ts';
import { DEV_CONSOLE_REDIRECT_URI } from '../../src-server/dev/dev-sign-in.ts';
import { DEV_ADMIN_USER_ID, DEV_CITIZEN_GROUP_ID, DEV_GOVERNMENT_GROUP_ID, startDevProvider, type DevProvider } from '../../src-server/dev/provider/index.ts';
import { freePort, STACK_SESSION_SECRET } from './stack.ts';

const CHILD_SCRIPT = path.join(import.meta.dirname, 'backend-child.ts');

export interface BackendProcess {
  baseUrl: string;
  databaseFile: string;
  provider: DevProvider;
  /** Starts the server (again) on the same port and file; resolves once it accepts requests. */
  start(): Promise<void>;
  /** SIGKILL: no shutdown of any kind. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  running(): boolean;
  /** CPU time the running server process has used so far (Linux /proc), in milliseconds; null elsewhere. */
  cpuMs(): number | null;
  close(): Promise<void>;
}

export async function createBackendProcess(databaseFile: string): Promise<BackendProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const clientId = `petitions-child-${port}`;
  const clientSecret = `child-secret-${port}-${Math.random().toString(36).slice(2)}`;
  const provider = await startDevProvider({
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [`${baseUrl}/auth/callback`, DEV_CONSOLE_REDIRECT_URI] }],
  });
  const config: Partial<ServerConfig> = {
    host: '127.0.0.1',
    port,
    databaseUrl: `sqlite:${databaseFile}`,
    publicBaseUrl: baseUrl,
    roblox: {
      clientId,
      clientSecret,
      issuer: provider.issuer,
      apiBase: provider.apiBase,
      citizenGroupId: DEV_CITIZEN_GROUP_ID,
      governmentGroupId: DEV_GOVERNMENT_GROUP_ID,
    } as ServerConfig['roblox'],
    adminUserId: DEV_ADMIN_USER_ID,
    sessionSecret: STACK_SESSION_SECRET,
  };
  let child: ChildProcess | null = null;

  async function waitExit(target: ChildProcess): Promise<void> {
    if (target.exitCode !== null || target.signalCode !== null) return;
    await new Promise<void>((resolve) => target.once('exit', () => resolve()));
  }

  const backend: BackendProcess = {
    baseUrl,
    databaseFile,
    provider,
    async start() {
      if (child) throw new Error('the backend is already running');
      const started = spawn(process.execPath, [CHILD_SCRIPT], {
        env: { ...process.env, BACKEND_CONFIG: JSON.stringify(config) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      let stderr = '';
      started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        started.stdout?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('listening')) resolve();
        });
        started.once('exit', (code) => reject(new Error(`backend exited (${code}) before listening: ${stderr.slice(-2000)}`)));
      });
      started.once('exit', () => {
        if (child === started) child = null;
      });
    },
    async kill() {
      const target = child;
      if (!target) return;
      target.kill('SIGKILL');
      await waitExit(target);
      child = null;
    },
    async stop() {
      const target = child;
      if (!target) return;
      target.kill('SIGTERM');
      await waitExit(target);
      child = null;
    },
    running: () => child !== null,
    cpuMs() {
      const stat = child?.pid ? `/proc/${child.pid}/stat` : null;
      if (!stat || !fs.existsSync(stat)) return null;
      // Fields 14 and 15 (utime, stime) in clock ticks, after the parenthesised command name.
      const fields = fs.readFileSync(stat, 'utf8').split(') ')[1]?.split(' ') ?? [];
      const ticks = Number(fields[11]) + Number(fields[12]);
      return Number.isFinite(ticks) ? ticks * 10 : null;
    },
    async close() {
      await backend.stop();
      await provider.close();
    },
  };
  return backend;
}
