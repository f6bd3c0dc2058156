/**
 * Web build of the renderer (`npx vite build` → dist-web/). The API server serves dist-web/ from
 * the same origin and port with an SPA fallback, so the bundle calls `/api/...` relatively.
 * The Electron staff console builds the same renderer with its own config and platform adapter.
 *
 * Dev: `npx vite` proxies /api to PETITIONS_API_URL (default http://127.0.0.1:3000).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig(({ command, mode }) => {
  // Test runners export NODE_ENV=test, which would make `vite build` ship React's development
  // build and JSX dev runtime (larger and slower). A production-mode build is always a production bundle.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    root: fromRoot('./src-renderer'),
    base: '/',
    publicDir: false,
    plugins: [react()],
    build: {
      outDir: fromRoot('./dist-web'),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      // The budget is 100 KB gzip of initial JS (tests/renderer/bundle-budget.test.ts); flag anything big.
      chunkSizeWarningLimit: 250,
    },
    server: {
      proxy: {
        '/api': { target: process.env.PETITIONS_API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false },
      },
    },
  };
});
