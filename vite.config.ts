/**
 * Web build of the renderer (`npx vite build` → dist-web/). The API server serves dist-web/ from
 * the same origin and port with an SPA fallback, so the bundle calls `/api/...` relatively.
 * The Electron staff console builds the same renderer with its own config and platform adapter.
 *
 * Dev: `npx vite` proxies /api to PETITIONS_API_URL (default http://127.0.0.1:3000).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build, defineConfig } from 'vite';
import type { Plugin, Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { staticImportClosure } from './scripts/module-graph.ts';
import { reactRouterTreeShaking } from './scripts/react-router-treeshaking.ts';

const fromRoot = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** Text assets worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|html|json|txt)$/;
/** Below this a compressed copy saves less than a packet; @fastify/static sends the plain file. */
const COMPRESS_MIN_BYTES = 512;

/**
 * Writes `name.br` and `name.gz` next to every emitted text asset once the bundle is on disk, for
 * @fastify/static's `preCompressed` (src-server/http/web-app.ts), which picks one by Accept-Encoding.
 * Build-time maximum compression costs nothing per request. Only runs when files are written, so
 * in-memory builds (tests/renderer-unit/bundle-budget.test.ts) are unaffected.
 */
function precompress(): Plugin {
  return {
    name: 'petitions:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? (options.file ? path.dirname(options.file) : null);
      if (!outDir) return;
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const source = fs.readFileSync(file);
        if (source.length < COMPRESS_MIN_BYTES) continue;
        const brotli = brotliCompressSync(source, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        const gzip = gzipSync(source, { level: zlib.Z_BEST_COMPRESSION });
        if (brotli.length < source.length) fs.writeFileSync(`${file}.br`, brotli);
        if (gzip.length < source.length) fs.writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
}

/**
 * The service worker (web push, docs/notifications.md#web-push) as dist-web/sw.js: one classic script
 * with everything it imports inlined (a worker registered at the site's root cannot share the app's
 * module chunks), built alongside the app and served unhashed with `no-cache`, so browsers notice a new one.
 */
function serviceWorker(): Plugin {
  return {
    name: 'petitions:service-worker',
    apply: 'build',
    async generateBundle() {
      const result = await build({
        configFile: false,
        logLevel: 'warn',
        publicDir: false,
        root: fromRoot('./src-renderer/service-worker'),
        build: {
          write: false,
          target: 'es2022',
          sourcemap: false,
          lib: { entry: fromRoot('./src-renderer/service-worker/sw.ts'), formats: ['iife'], name: 'petitionsServiceWorker', fileName: () => 'sw.js' },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
      const chunk = outputs.flatMap((output) => output.output).find((item): item is Rolldown.OutputChunk => item.type === 'chunk');
      if (!chunk) throw new Error('the service worker build produced no script');
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: chunk.code });
    },
  };
}

/**
 * Small modules most public pages use (the async hook, counts and dates, the status badge and tags with their
 * texts, the privacy constants): each alone would be a file of its own that the home, list and petition pages
 * (and the legal pages some of them) all fetch, and gzip compresses a small file poorly. In the entry they cost
 * those pages less than they do apart, and the pages that do not use them (start a petition) little.
 */
const PUBLIC_SHARED = /[\\/]src-(?:renderer[\\/](?:hooks[\\/]useAsync|components[\\/](?:format|StatusBadge|TagList))|shared[\\/](?:rules[\\/]classification|domain[\\/](?:privacy-constants|closure-messages)))\.tsx?$/;

/**
 * The entry file's modules (`codeSplitting.groups` name function): everything the entry imports statically, as
 * rolldown's `$initial` tag selects, and the `extra` modules. Only the entry's own static imports: their imports
 * are in the same set already, and following the extra modules' imports would pull in whole modules lazy pages use.
 */
function entryFile(extra: RegExp): (id: string, context: Rolldown.ChunkingContext) => string | null {
  let initial: Set<string> | null = null;
  /** The entries, found from any module by its importers, static or dynamic. */
  const entriesAbove = (id: string, context: Rolldown.ChunkingContext): string[] => {
    const seen = new Set<string>();
    const entries: string[] = [];
    const queue = [id];
    for (let module = queue.pop(); module !== undefined; module = queue.pop()) {
      if (seen.has(module)) continue;
      seen.add(module);
      const info = context.getModuleInfo(module);
      if (!info) continue;
      if (info.isEntry) entries.push(module);
      queue.push(...info.importers, ...info.dynamicImporters);
    }
    return entries;
  };
  return (id, context) => {
    initial ??= staticImportClosure(entriesAbove(id, context), (module) => context.getModuleInfo(module));
    return initial.has(id) || extra.test(id) ? 'index' : null;
  };
}

/**
 * Which of a lazy chunk's imports are fetched together with it (modulepreload, `build.modulePreload`): each list
 * of files is written into the chunk that makes the import, so it is part of that chunk's download.
 *   - The pages and the member's block, imported by the entry: their imports, so a page's files arrive in one round trip.
 *   - Never the entry file, which whatever imports a chunk has already, nor the chunk itself, which the import
 *     fetches at the same moment.
 *   - Parts a page loads after its first render (the chart, a member's sign button, dialogs) and the staff
 *     screens (src-renderer/staff/: term management, moderation, statistics, the petition's admin panel): none;
 *     they fetch their imports when they run, one round trip later, and the lists stay out of every visitor's
 *     entry file and petition page (docs/operations.md#javascript-weight).
 * Stylesheets are always listed (vite adds them after this choice). The plugin notes the entry file and the
 * staff screens' files before vite writes the lists.
 */
function lazyImportPreloads() {
  const staffScreens = new Set<string>();
  let entry: string | null = null;
  const plugin: Plugin = {
    name: 'petitions:lazy-import-preloads',
    apply: 'build',
    enforce: 'pre',
    generateBundle(_options, bundle) {
      staffScreens.clear();
      entry = null;
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        if (output.isEntry) entry = output.fileName;
        if (output.isDynamicEntry && output.facadeModuleId && STAFF_SCREEN.test(output.facadeModuleId)) staffScreens.add(output.fileName);
      }
    },
  };
  const resolveDependencies = (file: string, deps: string[], { hostId }: { hostId: string }) =>
    hostId !== entry || staffScreens.has(file) ? [] : deps.filter((dep) => dep !== entry && dep !== file);
  return { plugin, resolveDependencies };
}
const STAFF_SCREEN = /[\\/]src-renderer[\\/]staff[\\/]/;
const preloads = lazyImportPreloads();

export default defineConfig(({ command, mode }) => {
  // Test runners export NODE_ENV=test, which would make `vite build` ship React's development
  // build and JSX dev runtime (larger and slower). A production-mode build is always a production bundle.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    root: fromRoot('./src-renderer'),
    base: '/',
    publicDir: false,
    plugins: [react(), reactRouterTreeShaking(), preloads.plugin, serviceWorker(), precompress()],
    // Same as package.json "imports"; the console build points it at ./platform/desktop.ts instead.
    resolve: { alias: { '#platform': fromRoot('./src-renderer/platform/web.ts') } },
    build: {
      outDir: fromRoot('./dist-web'),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      // Initial JS is budgeted per public page (tests/renderer-unit/bundle-budget.test.ts); flag anything big.
      chunkSizeWarningLimit: 250,
      // Every browser the app supports has modulepreload: no polyfill in the entry.
      modulePreload: { polyfill: false, resolveDependencies: preloads.resolveDependencies },
      rolldownOptions: {
        // Everything the entry needs before a page renders is one file: one request, and its code
        // compresses along with React's (about 2 KB gzip less than the same code in several files).
        // Only modules the entry imports statically: their own imports are in the same set already, and
        // following them again would pull in whole modules lazy pages use (electron.vite.config.ts does the same).
        output: { codeSplitting: { groups: [{ name: entryFile(PUBLIC_SHARED), includeDependenciesRecursively: false }] } },
      },
    },
    server: {
      proxy: {
        '/api': { target: process.env.PETITIONS_API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false },
      },
    },
  };
});
