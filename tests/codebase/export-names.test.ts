/**
 * One name per thing (issue #19): no two modules of src-* export the same name, so a reader (or an
 * editor's auto-import) never has to ask which `createOutboxStore` is meant. Re-exports are not
 * declarations and never count; the allow-list below names every exception and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collisions, declaredExports, sourceFiles } from './export-names.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LAYERS = ['src-shared', 'src-server', 'src-renderer', 'src-main', 'src-preload'];

/** The same thing on purpose: name → the modules that share it. */
const SAME_THING: Record<string, string[]> = {
  // The one Platform each build of the renderer gets through package.json's "#platform" import.
  platform: ['src-renderer/platform/desktop.ts', 'src-renderer/platform/web.ts'],
};

function scan(): Map<string, string[]> {
  const files = sourceFiles(ROOT, LAYERS);
  return new Map(files.map((file) => [file, declaredExports(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))]));
}

describe('export names in src-*', () => {
  it('finds a collision, and ignores re-exports and default exports', () => {
    const modules = new Map([
      ['a.ts', declaredExports('a.ts', 'export function createStore() {}\nexport const shared = 1;\nexport default function () {}')],
      ['b.ts', declaredExports('b.ts', 'const createStore = () => 1;\nexport { createStore };\nexport type Shared = string;')],
      ['c.ts', declaredExports('c.ts', "import { shared } from './a.ts';\nexport { shared };\nexport { createStore as store } from './a.ts';")],
      ['d.ts', declaredExports('d.ts', 'interface Local {}\nexport type { Local as Shared };')],
    ]);
    expect(Object.fromEntries(collisions(modules))).toEqual({ createStore: ['a.ts', 'b.ts'], Shared: ['b.ts', 'd.ts'] });
  });

  it('has no name exported by two modules beyond the allow-list', () => {
    const modules = scan();
    // The scan reads the real tree: hundreds of modules, among them the main process's outbox store.
    expect(modules.size).toBeGreaterThan(200);
    expect(modules.get('src-main/node/outbox/outbox-store.ts')).toContain('createOutboxStore');
    const found = Object.fromEntries(collisions(modules));
    const unexpected = Object.fromEntries(Object.entries(found).filter(([name, files]) => !(name in SAME_THING && SAME_THING[name]!.join() === files.join())));
    expect(unexpected).toEqual({});
  });

  it('has no allow-list entry that no longer collides', () => {
    const found = Object.fromEntries(collisions(scan()));
    const stale = Object.keys(SAME_THING).filter((name) => found[name]?.join() !== SAME_THING[name]!.join());
    expect(stale).toEqual([]);
  });
});
