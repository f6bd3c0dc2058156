/**
 * The staff console build (`npm run build:console` → out/main, out/preload, out/renderer).
 *
 * - main: src-main/electron/index.ts, ESM; runtime dependencies that must stay files on disk
 *   (better-sqlite3's native binding, electron-updater) are external, everything else is bundled.
 * - preload: src-preload/index.ts as ONE CommonJS file (out/preload/index.cjs): a sandboxed preload
 *   can only `require('electron')` and a few built-ins, so nothing else may stay external.
 * - renderer: the console's own entry (src-renderer/console/index.html → out/renderer/index.html),
 *   over the same src-renderer code as the web build, with `#platform` pointing at the desktop
 *   adapter. The web app's entry (router, pages, shell) is not part of it.
 *
 * Building needs the `electron` package (for its version) but not its binary.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { staticImportClosure } from './scripts/module-graph.ts';

const fromRoot = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * electron-vite makes production renderer URLs relative ('./assets/…'), meant for file://. We serve
 * from app://console/ (and console:browser from http://127.0.0.1), where a deep link such as
 * /petitions/12 would then ask for /petitions/assets/…; root-absolute URLs work on every route.
 */
function absoluteBase(): Plugin {
  return {
    name: 'petitions:console-absolute-base',
    enforce: 'post',
    config(config) {
      config.base = '/';
    },
  };
}

/**
 * The modules the workspace frame (src-renderer/console/workspaceFrame.tsx) imports statically and the entry does
 * not, found in the module graph once it is built: the frame's chunk takes them all, so what the first render
 * requests is one file rather than one per shared component (each file costs its own compression and imports;
 * docs/operations.md#javascript-weight). Lazy screens that share one of them import it from the frame's file,
 * which every workspace has loaded by then.
 */
function frameChunk(entry: string, frame: string): { plugin: Plugin; modules: Set<string> } {
  const modules = new Set<string>();
  const plugin: Plugin = {
    name: 'petitions:console-frame-chunk',
    buildEnd() {
      const moduleInfo = (id: string) => this.getModuleInfo(id);
      const initial = staticImportClosure([entry], moduleInfo);
      modules.clear();
      for (const id of staticImportClosure([frame], moduleInfo)) if (!initial.has(id)) modules.add(id);
    },
  };
  return { plugin, modules };
}

/** Must stay real files next to the app: a native addon, and the updater (reads its own package files). */
const MAIN_EXTERNALS = ['better-sqlite3', 'electron-updater'];

export default defineConfig(({ mode }) => {
  const frame = frameChunk(fromRoot('./src-renderer/console/main.tsx'), fromRoot('./src-renderer/console/workspaceFrame.tsx'));
  // Same reason as vite.config.ts: a test runner's NODE_ENV=test must not give a development React.
  if (mode === 'production') process.env.NODE_ENV = 'production';
  return {
    main: {
      // The backend an installed console talks to unless PETITIONS_API_URL says otherwise at run time.
      define: { __PETITIONS_API_URL__: JSON.stringify(process.env.PETITIONS_API_URL || 'http://localhost:3000') },
      build: {
        // Bundle every dependency except the two above, so the packaged app needs few node_modules
        // (electron and Node's built-ins stay external anyway).
        externalizeDeps: false,
        rolldownOptions: {
          input: { index: fromRoot('./src-main/electron/index.ts') },
          external: MAIN_EXTERNALS,
        },
        minify: false,
        sourcemap: false,
      },
    },
    preload: {
      build: {
        externalizeDeps: false,
        // Each entry a standalone file: the Electron preload, and the same API over fetch and
        // server-sent events for `npm run console:browser` (a classic script in the page).
        isolatedEntries: true,
        rolldownOptions: {
          input: { index: fromRoot('./src-preload/index.ts'), 'browser-bridge': fromRoot('./src-preload/browser-bridge.ts') },
          output: { format: 'cjs', entryFileNames: '[name].cjs' },
        },
        minify: true,
      },
    },
    renderer: {
      // The console folder is the root, so its index.html is built as out/renderer/index.html
      // (what the app protocol and the browser host serve); shared code is imported from beside it.
      root: fromRoot('./src-renderer/console'),
      publicDir: false,
      plugins: [react(), absoluteBase(), frame.plugin],
      resolve: { alias: { '#platform': fromRoot('./src-renderer/platform/desktop.ts') } },
      build: {
        target: 'es2022',
        minify: true,
        // Chromium (Electron, console:browser) supports modulepreload itself: no polyfill in the entry. A lazy
        // screen's own imports are not preloaded (their lists cost the entry about 0.5 KB gzip): the console
        // reads its files from app:// or 127.0.0.1, where the extra request costs no network round trip, and
        // the screens a queue's keys open are fetched once it is interactive anyway (lazyScreens.ts). Style
        // sheets still are, or a screen would render unstyled.
        modulePreload: { polyfill: false, resolveDependencies: (_file, deps) => deps.filter((dep) => dep.endsWith('.css')) },
        rolldownOptions: {
          input: { index: fromRoot('./src-renderer/console/index.html') },
          // As the web build (vite.config.ts): what the entry needs before the queue renders is one file; what
          // the workspace frame adds, requested by the first render, is one more (frameChunk above).
          output: {
            codeSplitting: {
              groups: [
                { name: 'index', tags: ['$initial'], includeDependenciesRecursively: false },
                { name: 'workspaceFrame', test: (id) => frame.modules.has(id), includeDependenciesRecursively: false },
              ],
            },
          },
        },
      },
    },
  };
});
