/**
 * ESLint's import rules per layer (eslint.config.js), run on probe text with the real configuration:
 * no Node built-in at all (every one Node lists, with or without `node:`, and subpaths) in renderer or
 * shared code, only the allowed packages in shared code, and Electron only in src-main/electron and
 * src-preload. The probes are linted in memory; nothing is written.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILTINS = builtinModules.map((name) => name.replace(/^node:/, ''));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The imports of `specifiers` that no-restricted-imports refuses in a file at `file`. */
async function refusedImports(file: string, specifiers: string[]): Promise<string[]> {
  const code = specifiers.map((specifier) => `import '${specifier}';\n`).join('');
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  const refused = (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports');
  return refused.map((message) => specifiers[message.line - 1] ?? `line ${message.line}`);
}

describe('import rules per layer', () => {
  it('refuse every Node built-in in renderer and shared code, bare, prefixed and by subpath', async () => {
    const everyBuiltin = [...BUILTINS, ...BUILTINS.map((name) => `node:${name}`), 'node:sqlite', 'node:test', 'fs/promises', 'stream/web'];
    expect(BUILTINS).toEqual(expect.arrayContaining(['events', 'net', 'zlib', 'fs', 'worker_threads']));
    for (const file of ['src-renderer/probe.tsx', 'src-shared/probe.ts']) {
      expect(await refusedImports(file, everyBuiltin)).toEqual(everyBuiltin);
    }
  });

  it('let shared code import its allowed package and itself only', async () => {
    expect(await refusedImports('src-shared/rules/probe.ts', ['zod', '../domain/constants.ts', './text.ts'])).toEqual([]);
    const others = ['react', 'zustand', 'kysely', 'electron', 'fsevents', '@fastify/cookie'];
    expect(await refusedImports('src-shared/rules/probe.ts', others)).toEqual(others);
  });

  it('do not mistake a folder named like a built-in for one', async () => {
    // `domain` and `constants` are Node built-ins too.
    expect(await refusedImports('src-renderer/probe.ts', ['../src-shared/domain/constants.ts', 'react'])).toEqual([]);
  });

  it('keep Electron in src-main/electron and src-preload', async () => {
    const electron = ['electron', 'electron-updater'];
    for (const file of ['src-server/probe.ts', 'src-renderer/probe.ts', 'src-shared/probe.ts', 'src-main/node/probe.ts', 'tests/probe.test.ts', 'scripts/probe.ts']) {
      expect({ file, refused: await refusedImports(file, electron) }).toEqual({ file, refused: electron });
    }
    expect(await refusedImports('src-main/electron/probe.ts', electron)).toEqual([]);
    expect(await refusedImports('src-preload/probe.ts', ['electron'])).toEqual([]);
  });

  it('leave Node built-ins to the Node layers', async () => {
    expect(await refusedImports('src-server/probe.ts', ['node:fs', 'events', 'zlib'])).toEqual([]);
    expect(await refusedImports('src-main/node/probe.ts', ['node:fs', 'events'])).toEqual([]);
  });
});
