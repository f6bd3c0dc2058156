/**
 * `npm start` twice at once in one checkout: the web app is built once (the second start waits for
 * the first build and skips its own), both servers serve every file of it, and a rebuild while they
 * run (scripts/build-web.ts --force) never takes a file from under them. The two share a fresh
 * WEB_DIST_DIR so the build really runs; each has its own ports and data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-start-twice-'));
const webDir = path.join(dir, 'dist-web');

interface Started {
  child: ChildProcess;
  output: () => string;
  baseUrl: string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

async function npmStart(name: string): Promise<Started> {
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DEV_PROVIDER_PORT: String(await freePort()),
    DATA_DIR: path.join(dir, name),
    WEB_DIST_DIR: webDir,
    SEED_DEMO_DATA: 'never',
    LOG_LEVEL: 'info',
  };
  // Its own process group, so the test ends npm and the server under it together.
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, baseUrl: `http://127.0.0.1:${port}`, exited };
}

async function waitUntilServing(started: Started): Promise<void> {
  const deadline = Date.now() + 150_000;
  while (!started.output().includes('Petitions is running at')) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every file the served index.html names, fetched brotli-encoded as a browser would: all must be 200. */
async function fetchWholeApp(baseUrl: string): Promise<{ failures: string[]; assets: number }> {
  const index = await fetch(`${baseUrl}/`, { headers: { 'accept-encoding': 'br' } });
  const html = await index.text();
  const failures: string[] = index.status === 200 ? [] : [`/ → ${index.status}`];
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  // Lazy chunks too: every file the build left in assets/.
  const onDisk = fs.readdirSync(path.join(webDir, 'assets')).filter((file) => !/\.(?:br|gz)$/.test(file));
  const all = [...new Set([...assets, ...onDisk.map((file) => `/assets/${file}`)])];
  for (const asset of all) {
    const response = await fetch(`${baseUrl}${asset}`, { headers: { 'accept-encoding': 'br, gzip' } });
    await response.arrayBuffer();
    if (response.status !== 200) failures.push(`${asset} → ${response.status}`);
  }
  return { failures, assets: all.length };
}

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start twice in one checkout', () => {
  it('builds once, and both servers serve the whole app, also through a rebuild', async () => {
    const [first, second] = await Promise.all([npmStart('first'), npmStart('second')]);
    await Promise.all([waitUntilServing(first), waitUntilServing(second)]);
    const logs = [first.output(), second.output()];
    expect(logs.filter((log) => log.includes('web build: built into')), logs.join('\n----\n')).toHaveLength(1);
    expect(logs.filter((log) => /build skipped/.test(log))).toHaveLength(1);

    for (const started of [first, second]) {
      const { failures, assets } = await fetchWholeApp(started.baseUrl);
      expect(failures).toEqual([]);
      expect(assets).toBeGreaterThan(5);
    }

    // A rebuild while both serve: fetch everything over and over until it is done.
    const rebuild = spawn(NODE, ['scripts/build-web.ts', '--force'], { cwd: ROOT, env: { ...process.env, WEB_DIST_DIR: webDir }, stdio: 'pipe' });
    children.push(rebuild);
    let rebuilding = true;
    const rebuilt = new Promise<number | null>((resolve) => rebuild.once('exit', (code) => {
      rebuilding = false;
      resolve(code);
    }));
    const failures: string[] = [];
    let rounds = 0;
    while (rebuilding) {
      failures.push(...(await fetchWholeApp(first.baseUrl)).failures);
      rounds += 1;
    }
    expect(await rebuilt).toBe(0);
    expect(failures).toEqual([]);
    expect(rounds).toBeGreaterThan(0);
    expect((await fetchWholeApp(second.baseUrl)).failures).toEqual([]);
    expect([first.child.exitCode, second.child.exitCode]).toEqual([null, null]);
  }, 240_000);
});
