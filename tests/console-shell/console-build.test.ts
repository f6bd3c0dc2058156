/**
 * `electron-vite build` (npm run build:console) runs here without the Electron binary, into a
 * temporary folder, and its output carries the security settings the installed console relies on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_TEXTS } from '../../src-shared/rules/presence.ts';
import { initLexer, staticImports } from '../support/static-imports.ts';
import { runConsoleBuild } from './console-build.ts';

/**
 * The console's own JavaScript up to an interactive queue (README, "Console screens and shortcuts"; issue #22: at most
 * 80 KB gzip): React, the stores and the queue, and the frame around it, a chunk the first render requests. The
 * background work, colleagues' notes and the panels come after, once the queue is interactive
 * (docs/operations.md#javascript-weight). Measured 79.4 KB gzip -9 (React, ReactDOM and zustand are 66 KB of it).
 */
const CONSOLE_INITIAL_BUDGET_BYTES = 80 * 1024;

let out: string;
const read = (file: string) => fs.readFileSync(path.join(out, file), 'utf8');
const rendererScripts = () =>
  fs.readdirSync(path.join(out, 'renderer', 'assets')).filter((f) => f.endsWith('.js')).map((f) => read(path.join('renderer', 'assets', f))).join('\n');

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'console-build-'));
  await runConsoleBuild(out);
}, 180_000);

afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe('the console build', () => {
  it('produces main, a sandbox-ready CommonJS preload, the browser bridge and the renderer', () => {
    for (const file of ['main/index.js', 'preload/index.cjs', 'preload/browser-bridge.cjs', 'renderer/index.html']) {
      expect(fs.existsSync(path.join(out, file)), file).toBe(true);
    }
    const preload = read('preload/index.cjs');
    // A sandboxed preload can require electron and nothing else we ship: one file, no ESM.
    expect([...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(preload).not.toMatch(/^\s*import\s|\bimport\(|export\s/m);
    expect(preload).toContain('exposeInMainWorld');
    expect(preload).toContain('consoleApi');
    // The bridge is a classic script for a page: no require, no module syntax.
    const bridge = read('preload/browser-bridge.cjs');
    expect(bridge).not.toMatch(/require\(|^\s*import\s|^\s*export\s/m);
  });

  it('serves the renderer from app:// with a CSP and creates windows with the security flags', () => {
    const main = read('main/index.js');
    expect(main).toContain('registerSchemesAsPrivileged');
    expect(main).toMatch(/scheme: "app"/);
    expect(main).toMatch(/protocol\.handle\("app"/);
    expect(main).toContain('content-security-policy');
    expect(main).toContain("script-src 'self'");
    expect(main).toMatch(/contextIsolation: true/);
    expect(main).toMatch(/sandbox: true/);
    expect(main).toMatch(/nodeIntegration: false/);
    expect(main).toMatch(/webviewTag: false/);
    expect(main).toContain('setPermissionRequestHandler');
    expect(main).toContain('setWindowOpenHandler');
    expect(main).toContain('will-navigate');
    expect(main).not.toMatch(/loadFile\(|loadURL\(["'`]file:/);
    expect(main).toContain('app://console/index.html');
    // Only what must stay on disk is external; main's imports are electron, Node and those two.
    const imports = [...main.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((m) => m[1]);
    expect(imports.filter((name) => !name!.startsWith('node:')).sort()).toEqual(['better-sqlite3', 'electron', 'electron-updater']);
  });

  it('bundles the desktop platform adapter and not the web one', () => {
    const scripts = rendererScripts();
    expect(scripts).toContain('petitions.console.returnTo');
    expect(scripts).toContain('consoleApi');
    expect(scripts).not.toContain('"petitions.returnTo"');
    expect(scripts).not.toContain('`petitions.returnTo`');
    const html = read('renderer/index.html');
    expect(html).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
  });

  it('gives the console its own entry: at most 80 KB gzip up to the queue, no web app, the other screens lazy', async () => {
    await initLexer();
    const html = read('renderer/index.html');
    const entries = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="\/([^"]+)"/g)].map((m) => m[1]!);
    expect(entries).toHaveLength(1);
    // The entry and everything it imports statically: what the page runs before its first screen.
    const initial = new Set<string>();
    const visit = (file: string) => {
      if (initial.has(file)) return;
      initial.add(file);
      for (const specifier of staticImports(read(path.join('renderer', file)))) visit(path.posix.join(path.posix.dirname(file), specifier));
    };
    visit(entries[0]!);
    // The frame around the queue is a chunk of its own that the first render asks for at once: the
    // queue is not interactive before it is there, so it counts (as npm run perf:console counts it).
    const frame = fs.readdirSync(path.join(out, 'renderer', 'assets')).find((name) => name.startsWith('workspaceFrame-') && name.endsWith('.js'));
    expect(frame, 'the workspace frame chunk').toBeDefined();
    // The walk reads real imports: the frame takes React and the stores from the entry's file.
    expect(staticImports(read(path.join('renderer', 'assets', frame!))).map((specifier) => path.posix.join('assets', specifier))).toContain(entries[0]);
    visit(`assets/${frame}`);
    const code = [...initial].map((file) => read(path.join('renderer', file)));
    const gzip = code.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length, 0);
    console.info(`initial console JS: ${(gzip / 1024).toFixed(2)} KB gzip -9 in ${initial.size} file(s)`);
    expect(gzip, `initial console JS: ${(gzip / 1024).toFixed(1)} KB gzip in ${initial.size} files`).toBeLessThanOrEqual(CONSOLE_INITIAL_BUDGET_BYTES);
    const joined = code.join('\n');
    const all = rendererScripts();
    // (Booleans, not toContain: a failure would print megabytes of minified code.)
    // The queue is there; the web app's shell and router are not.
    expect(joined.includes('Awaiting government response')).toBe(true);
    expect(joined.includes('Not affiliated with the UK Government'), 'the web app shell').toBe(false);
    expect(joined.includes('You cannot render a <Router>'), 'react-router').toBe(false);
    // The petition screen, the panels, the administrator screens, colleagues' notes and the background work
    // (here: the queues' news) come later, as chunks of their own.
    const later = [
      'Add Government Response',
      'Recently applied or discarded',
      'Keyboard shortcuts',
      'Dangerous Actions',
      PRESENCE_TEXTS.offline,
      'New petition awaiting a government response',
    ];
    for (const text of later) {
      expect(joined.includes(text), `${text} in the initial JS`).toBe(false);
      expect(all.includes(text), `${text} in a lazy chunk`).toBe(true);
    }
    // The background's chunk is imported by nothing the queue loads first, only requested later.
    const background = fs.readdirSync(path.join(out, 'renderer', 'assets')).find((name) => name.startsWith('workspaceBackground-') && name.endsWith('.js'));
    expect(background, 'the workspace background chunk').toBeDefined();
    expect(initial.has(`assets/${background}`)).toBe(false);
  });

  it('leaves the web build without the desktop adapter (the same renderer, the other #platform)', async () => {
    const nodeEnv = process.env.NODE_ENV;
    const result = await build({ configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)), logLevel: 'silent', build: { write: false } }).finally(() => {
      process.env.NODE_ENV = nodeEnv;
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    const code = outputs.flatMap((o) => o.output.filter((c): c is Rolldown.OutputChunk => c.type === 'chunk').map((c) => c.code)).join('\n');
    expect(code).toContain('petitions.returnTo');
    expect(code).not.toContain('consoleApi');
    expect(code).not.toContain('petitions.console.returnTo');
  });
});
