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

export default defineConfig(({ command, mode }) => {
  // Test runners export NODE_ENV=test, which would make `vite build` ship React's development
  // build and JSX dev runtime (larger and slower). A production-mode build is always a production bundle.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    root: fromRoot('./src-renderer'),
    base: '/',
    publicDir: false,
    plugins: [react(), reactRouterTreeShaking(), serviceWorker(), precompress()],
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
      modulePreload: { polyfill: false },
      rolldownOptions: {
        // Everything the entry needs before a page renders is one file: one request, and its code
        // compresses along with React's (about 2 KB gzip less than the same code in several files).
        // Only modules the entry imports statically: their own imports are in the same set already, and
        // following them again would pull in whole modules lazy pages use (electron.vite.config.ts does the same).
        output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'], includeDependenciesRecursively: false }] } },
      },
    },
    server: {
      proxy: {
        '/api': { target: process.env.PETITIONS_API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false },
      },
    },
  };
});
