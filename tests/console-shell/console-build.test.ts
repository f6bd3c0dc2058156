/**
 * `electron-vite build` (npm run build:console) runs here without the Electron binary, into a
 * temporary folder, and its output carries the security settings the installed console relies on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsoleBuild } from './console-build.ts';

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
