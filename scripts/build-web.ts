/**
 * `npm run build:web` and the first half of `npm start`: builds the web app into dist-web (or
 * WEB_DIST_DIR) only when its sources changed, and never pulls files from under a server that is
 * serving the folder.
 *
 * - Current? A stamp in the folder holds a hash of every build input; equal hash → nothing to do.
 * - One builder at a time: `<folder>.build.lock` (the lock tests/support/stack.ts and perf:web
 *   take too). Whoever waited re-checks the stamp, so two `npm start` at once build once.
 * - The build goes to a temporary folder and is moved in file by file (each rename is atomic),
 *   index.html last, so the folder never names a file that is not there. The previous build's files
 *   stay, because a server started before holds that build's index.html in memory; older ones go.
 *
 * Usage: node scripts/build-web.ts [--force]
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..');
export const DEFAULT_WEB_DIST_DIR = path.join(ROOT, 'dist-web');
const BUILD_INPUTS = ['src-renderer', 'src-shared', 'vite.config.ts', 'scripts/module-graph.ts', 'scripts/react-router-treeshaking.ts', 'package-lock.json'];
const STAMP_FILE = '.build-stamp';
const MANIFEST_FILE = '.build-files.json';
const LOCK_STALE_MS = 10 * 60 * 1000;
const LOCK_POLL_MS = 200;

export interface WebBuildOptions {
  outDir?: string;
  /** Build even when the stamp says the folder is current. */
  force?: boolean;
  log?: (message: string) => void;
}

export interface WebBuildResult {
  built: boolean;
  outDir: string;
  ms: number;
}

function filesUnder(target: string): string[] {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [target];
  return fs
    .readdirSync(target)
    .sort()
    .flatMap((entry) => filesUnder(path.join(target, entry)));
}

/** A hash of every input's path and content: mtimes lie after a checkout or a copy. */
export function sourceFingerprint(): string {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) {
    for (const file of filesUnder(path.join(ROOT, input))) {
      hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

export function webBuildIsCurrent(outDir: string, fingerprint: string): boolean {
  if (!fs.existsSync(path.join(outDir, 'index.html'))) return false;
  const stamp = fs.readFileSync(path.join(outDir, STAMP_FILE), 'utf8');
  return stamp.trim() === fingerprint;
}

function isCurrent(outDir: string, fingerprint: string): boolean {
  try {
    return webBuildIsCurrent(outDir, fingerprint);
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `<outDir>.build.lock`; a lock whose process is gone, or that is very old, is taken over. */
async function acquireLock(lockFile: string, log: (message: string) => void): Promise<() => void> {
  let announced = false;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(fs.readFileSync(lockFile, 'utf8') || '0', 10);
    const age = Date.now() - (fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if ((holder > 0 && !processAlive(holder)) || age > LOCK_STALE_MS) {
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (!announced) log(`web build: waiting for the build of process ${holder || '?'} (${path.basename(lockFile)})`);
    announced = true;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

function readManifest(outDir: string): string[] {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')) as string[];
  } catch {
    return [];
  }
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/** Moves the new build in: assets first, the pages (index.html and its copies) last, then prunes. */
function moveIn(built: string, outDir: string): void {
  const files = filesUnder(built).map((file) => path.relative(built, file));
  const isPage = (file: string) => !file.includes(path.sep) && /\.html(?:\.br|\.gz)?$/.test(file);
  const ordered = [...files.filter((file) => !isPage(file)), ...files.filter(isPage)];
  const previous = readManifest(outDir);
  for (const file of ordered) {
    const target = path.join(outDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(path.join(built, file), target);
  }
  const keep = new Set([...files, ...previous, STAMP_FILE, MANIFEST_FILE]);
  for (const file of filesUnder(outDir).map((f) => path.relative(outDir, f))) {
    if (!keep.has(file)) fs.rmSync(path.join(outDir, file), { force: true });
  }
  writeAtomically(path.join(outDir, MANIFEST_FILE), JSON.stringify(files));
}

export async function buildWebIfStale(options: WebBuildOptions = {}): Promise<WebBuildResult> {
  const outDir = path.resolve(options.outDir ?? DEFAULT_WEB_DIST_DIR);
  const log = options.log ?? (() => {});
  const started = Date.now();
  const result = (built: boolean): WebBuildResult => ({ built, outDir, ms: Date.now() - started });
  const fingerprint = sourceFingerprint();
  if (!options.force && isCurrent(outDir, fingerprint)) {
    log(`web build: ${path.relative(ROOT, outDir) || outDir} is current, build skipped`);
    return result(false);
  }
  const release = await acquireLock(`${outDir}.build.lock`, log);
  const temporary = `${outDir}.tmp-${process.pid}`;
  try {
    if (!options.force && isCurrent(outDir, fingerprint)) {
      log(`web build: ${path.relative(ROOT, outDir) || outDir} was just built by another process, build skipped`);
      return result(false);
    }
    log('web build: building the web app (vite build)');
    fs.rmSync(temporary, { recursive: true, force: true });
    const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    await promisify(execFile)(process.execPath, [vite, 'build', '--outDir', temporary, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    fs.mkdirSync(outDir, { recursive: true });
    moveIn(temporary, outDir);
    // Written last: a folder whose stamp matches is complete.
    writeAtomically(path.join(outDir, STAMP_FILE), fingerprint);
    log(`web build: built into ${path.relative(ROOT, outDir) || outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result(true);
  } finally {
    fs.rmSync(temporary, { recursive: true, force: true });
    release();
  }
}

if (import.meta.main) {
  buildWebIfStale({
    outDir: process.env.WEB_DIST_DIR || undefined,
    force: process.argv.includes('--force'),
    log: (message) => console.log(message),
  }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
