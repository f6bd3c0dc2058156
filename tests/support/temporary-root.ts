/**
 * Vitest's global setup, and the start of `npm run perf:web`: every temporary file of one run lives
 * under one directory, removed when the run ends. Test files make their directories with os.tmpdir(),
 * which reads TMPDIR, and the forked workers, servers and Chromium inherit it; a file that cannot
 * clean up after itself (a console whose SQLite cache is still open when its file ends, a browser
 * profile) leaves nothing behind on the machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-tests-'));
  // Others may pass through, as through /tmp, but not list it: a private PostgreSQL server runs as
  // the postgres user in a folder of its own in here (private-postgres.ts); every folder inside is
  // made by mkdtemp, so it is its owner's alone.
  fs.chmodSync(root, 0o711);
  process.env.TMPDIR = root;
  return () => fs.rmSync(root, { recursive: true, force: true });
}
