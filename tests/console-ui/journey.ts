/**
 * The setup every console journey file shares, so each file states only what it tests (kept apart
 * from harness.ts, which the scripts import outside vitest).
 */
import { afterAll, beforeAll } from 'vitest';
import { startConsoleStack, type ConsoleStack } from './harness.ts';

export type { ConsoleStack };

/**
 * For a journey file: starts the console stack before its tests (then `prepare` seeds and opens
 * consoles) and closes it after. Read `journey.stack` and the rest inside tests and hooks.
 */
export function consoleJourney(
  prepare: (journey: ConsoleStack) => Promise<void>,
  options: Parameters<typeof startConsoleStack>[0] = {},
): ConsoleStack {
  let started: ConsoleStack | undefined;
  const get = (): ConsoleStack => {
    if (!started) throw new Error('the console journey has not started (use it inside tests and hooks)');
    return started;
  };
  beforeAll(async () => {
    started = await startConsoleStack(options);
    await prepare(started);
  }, 180_000);
  afterAll(async () => {
    await started?.close();
  });
  return {
    get stack() {
      return get().stack;
    },
    get browser() {
      return get().browser;
    },
    get redirects() {
      return get().redirects;
    },
    openConsole: (options) => get().openConsole(options),
    forwarder: () => get().forwarder(),
    signedInPage: (instance, persona) => get().signedInPage(instance, persona),
    close: () => get().close(),
  };
}
