/**
 * The platform in use. The web build uses the browser adapter; the Electron console build will
 * point this module (or a `#platform` alias) at its desktop adapter instead.
 */
import { webPlatform } from './web.ts';
import type { Platform } from './types.ts';

export type { Platform } from './types.ts';
export const platform: Platform = webPlatform;
