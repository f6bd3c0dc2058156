/**
 * Crash safety of the outbox and sync: 1,000 queued actions, the console process SIGKILLed at
 * random points and restarted until its queue drains; then the backend SIGKILLed and restarted
 * under a syncing console. Afterwards every action is applied exactly once (one audit row each)
 * or shown as a conflict.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleCore } from '../../src-main/node/console-core.ts';
import { openConsoleDb } from '../../src-main/node/db/console-database.ts';
import { createOutboxStore } from '../../src-main/node/outbox/outbox-store.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { createBackendProcess, type BackendProcess } from '../support/backend-process.ts';
import { auditCount } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { CRASH_ACTIONS, expectExactlyOnce, PAIRED_PETITIONS, seedCrashWorkload } from './crash-fixture.ts';
import { consoleSignIn, RecordingEvents, TestAuth, tempDir } from './support.ts';

const CHILD = path.join(import.meta.dirname, 'crash-child.ts');
const MIN_KILLS = 5;
/** Generous: the machine is shared, and a slow run must not fail a correct sync. */
const CRASH_TEST_TIMEOUT_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

let stack: Stack | null = null;
let backend: BackendProcess | null = null;
afterAll(async () => {
  await stack?.close();
  await backend?.close();
});

/**
 * Runs the child once. With `killWhen`, it is SIGKILLed as soon as that returns true (polled every
 * few milliseconds while it syncs, plus a random few more), else it runs until it has drained.
 */
function runChild(env: Record<string, string>, killWhen: (() => Promise<boolean>) | null): Promise<'drained' | 'killed'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    let polling = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (killWhen && out.includes('ready') && !polling) {
        polling = true;
        void (async () => {
          while (child.exitCode === null && child.signalCode === null && !(await killWhen())) await sleep(3);
          await sleep(randomBetween(0, 15));
          child.kill('SIGKILL');
        })();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (out.includes('drained') && code === 0) resolve('drained');
      else if (signal === 'SIGKILL') resolve('killed');
      else reject(new Error(`console child exited ${code ?? signal}: ${err.slice(-2000)}`));
    });
  });
}

/** Random points along the way, as numbers of actions applied. */
function killPoints(total: number, count: number): number[] {
  return Array.from({ length: count }, () => randomBetween(20, total - 20)).sort((a, b) => a - b);
}

describe('crash safety', () => {
  it('a console killed at random points applies each of 1,000 actions once, or shows it as a conflict', async () => {
    stack = await startStack({ serveWebApp: false });
    const admin = await consoleSignIn(stack, 'System Administrator');
    const workload = await seedCrashWorkload(stack.context.db);
    const dataDir = tempDir('crash-console-');
    const db = openConsoleDb(dataDir);
    createOutboxStore(db, { now: Date.now }).enqueue(admin.userId, workload.actions);
    db.close();

    const env = { CONSOLE_DATA_DIR: dataDir, PETITIONS_API_URL: stack.baseUrl, CONSOLE_USER_ID: admin.userId, CONSOLE_TOKEN: admin.token };
    let kills = 0;
    for (const point of killPoints(PAIRED_PETITIONS * 2, MIN_KILLS)) {
      const outcome = await runChild(env, async () => (await auditCount(stack as Stack)) >= point);
      if (outcome === 'drained') break;
      kills += 1;
    }
    expect(await runChild(env, null)).toBe('drained');
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS - 1);

    const reopened = openConsoleDb(dataDir);
    const entries = createOutboxStore(reopened, { now: Date.now }).list({ limit: 10_000 });
    reopened.close();
    await expectExactlyOnce(stack.context.db, workload, entries);
  }, CRASH_TEST_TIMEOUT_MS);

  it('a backend killed at random points under a syncing console loses and doubles nothing', async () => {
    const dir = tempDir('crash-backend-');
    const databaseFile = path.join(dir, 'backend.db');
    const seeding = await openDatabase(`sqlite:${databaseFile}`);
    const workload = await seedCrashWorkload(seeding.db);
    await seeding.close();

    backend = await createBackendProcess(databaseFile);
    await backend.start();
    const admin = await consoleSignIn(backend, 'System Administrator');
    const auth = new TestAuth(admin);
    const core = createConsoleCore({ dataDir: tempDir('crash-backend-console-'), apiBaseUrl: backend.baseUrl, auth, events: new RecordingEvents() });
    await core.handlers['outbox:enqueue']({ actions: workload.actions.slice(0, 500), batch: false });
    await core.handlers['outbox:enqueue']({ actions: workload.actions.slice(500), batch: false });
    core.start();

    const remaining = async () => {
      const { summary } = await core.handlers['outbox:list']({ limit: 1 });
      return summary.queued + summary.sending;
    };
    const applied = async () => {
      const { summary } = await core.handlers['outbox:list']({ limit: 1 });
      return CRASH_ACTIONS - summary.queued - summary.sending - summary.attention;
    };
    let kills = 0;
    for (const point of killPoints(PAIRED_PETITIONS * 2, MIN_KILLS)) {
      while ((await applied()) < point && (await remaining()) > 0) await sleep(3);
      if ((await remaining()) === 0) break;
      await sleep(randomBetween(0, 15));
      await backend.kill();
      kills += 1;
      await sleep(randomBetween(20, 150));
      await backend.start();
      core.setOnline(true);
    }
    for (let i = 0; i < 600 && (await remaining()) > 0; i += 1) {
      await core.whenIdle();
      if ((await remaining()) > 0) {
        await sleep(50);
        core.setOnline(true);
      }
    }
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS - 1);
    const entries = (await core.handlers['outbox:list']({ limit: 10_000 })).entries;
    expect(entries).toHaveLength(CRASH_ACTIONS);
    await core.close();
    await backend.stop();

    const check = await openDatabase(`sqlite:${databaseFile}`);
    try {
      await expectExactlyOnce(check.db, workload, entries);
    } finally {
      await check.close();
    }
  }, CRASH_TEST_TIMEOUT_MS);
});

