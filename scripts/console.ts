/**
 * `npm run console`: the real Electron console.
 *   npm run console           builds (electron-vite build) and starts the built console
 *   npm run console -- --dev  electron-vite dev: the renderer from Vite's dev server with hot reload
 *
 * The Electron binary is downloaded on first use (`npx install-electron`, or any run of the
 * `electron` package); where it cannot be (no network to GitHub), say so instead of trying, and
 * point at `npm run console:browser`, which runs the same console in a browser.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const ELECTRON_DIR = path.join(ROOT, 'node_modules', 'electron');

function electronBinary(): string | null {
  const pathFile = path.join(ELECTRON_DIR, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) return path.join(override, relative ?? 'electron');
  if (!relative) return null;
  const full = path.join(ELECTRON_DIR, 'dist', relative);
  return fs.existsSync(full) ? full : null;
}

const binary = electronBinary();
if (!binary && process.env.PETITIONS_CONSOLE_FETCH_ELECTRON !== '1') {
  console.error(
    [
      'The Electron binary is not installed (node_modules/electron/dist is missing).',
      'On a machine that can reach GitHub: `npx install-electron` (or run with PETITIONS_CONSOLE_FETCH_ELECTRON=1),',
      'or point ELECTRON_OVERRIDE_DIST_PATH at an unpacked Electron 45.',
      'Without Electron, `npm run console:browser` runs the same console in your browser.',
    ].join('\n'),
  );
  process.exit(1);
}

const run = (args: string[]) => spawnSync('npx', args, { cwd: ROOT, stdio: 'inherit', env: process.env }).status ?? 1;
const dev = process.argv.includes('--dev');
process.exit(dev ? run(['electron-vite', 'dev']) : run(['electron-vite', 'build']) || run(['electron-vite', 'preview', '--skipBuild']));
