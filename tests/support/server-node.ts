/**
 * One server node as production runs it: `src-server/main.ts` in a process of its own (background
 * jobs on, web app served), on a free port, development sign-in on a free port of its own.
 * Resolves once /readyz answers 200 (or, with `until: 'healthy'`, once /healthz does: a node still
 * waiting for its database).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from './stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerNode {
  base: string;
  process: ChildProcess;
  /** What the node wrote to stderr (its crash, if it died). */
  stderr(): string;
  /** SIGTERM (graceful shutdown) and wait for the exit. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** `ready` (default): /readyz answers 200; `healthy`: /healthz answers 200, whatever /readyz says; `spawned`: at once. */
  until?: 'ready' | 'healthy' | 'spawned';
}

export async function startServerNode(env: Record<string, string>, options: StartOptions = {}): Promise<ServerNode> {
  // The ports are free when chosen, but the child binds them a second later: with test files running
  // in parallel another process may take one first. Then the child exits at once, and another pair is chosen.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePorts(env, options);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnFreePorts(env: Record<string, string>, options: StartOptions): Promise<ServerNode> {
  const probe = options.until === 'healthy' ? '/healthz' : '/readyz';
  const port = await freePort();
  const child = spawn(process.execPath, ['src-server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      DEV_PROVIDER_PORT: String(await freePort()),
      SEED_DEMO_DATA: 'never',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; options.until !== 'spawned'; attempt += 1) {
    if (await fetch(`${base}${probe}`).then((r) => r.ok, () => false)) break;
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before it was ready: ${stderr}`);
    if (attempt > 300) throw new Error(`server did not become ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    process: child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
