/**
 * The platform in use. `#platform` is resolved at build time: package.json "imports" and the web
 * build point it at ./web.ts, the console build (electron.vite.config.ts) at ./desktop.ts, so each
 * bundle carries only its own adapter.
 */
export type { Platform } from './types.ts';
export { platform } from '#platform';
