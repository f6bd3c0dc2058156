/**
 * The console build (out/) for tests that serve it: built once per test run when missing or older
 * than its sources; a lock file serialises parallel test files (as ensureWebBuild does for dist-web).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const OUT = path.join(ROOT, 'out');
const MARKER = path.join(OUT, 'renderer', 'index.html');
const LOCK = path.join(ROOT, 'out.build.lock');
const INPUTS = ['src-renderer', 'src-shared', 'src-preload', 'src-main', 'electron.vite.config.ts', 'package.json'].map((p) => path.join(ROOT, p));
const STALE_LOCK_MS = 5 * 60 * 1000;

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function isCurrent(): boolean {
  const files = [MARKER, path.join(OUT, 'preload', 'index.cjs'), path.join(OUT, 'preload', 'browser-bridge.cjs'), path.join(OUT, 'main', 'index.js')];
  if (!files.every((file) => fs.existsSync(file))) return false;
  const built = Math.min(...files.map((file) => fs.statSync(file).mtimeMs));
  return INPUTS.every((input) => newestMtime(input) <= built);
}

/** Runs `electron-vite build`, into `outDir` when given (default out/). */
export async function runConsoleBuild(outDir?: string): Promise<void> {
  const args = ['electron-vite', 'build', '--logLevel', 'warn', ...(outDir ? ['--outDir', outDir] : [])];
  await promisify(execFile)('npx', args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
}

export async function ensureConsoleBuild(): Promise<void> {
  if (isCurrent()) return;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(LOCK, { force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (!isCurrent()) await runConsoleBuild();
  } finally {
    fs.rmSync(LOCK, { force: true });
  }
}
