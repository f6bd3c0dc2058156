/**
 * Every package the code imports is declared in package.json, so `npm ci` brings it on a clean machine and
 * no upgrade of whatever happened to bring it along can take it away. Scans every source file of the
 * repository (layers, scripts, tests, config files) with TypeScript's own import scanner.
 */
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;
/** Installed packages, build output and local data (see .gitignore); dot-folders are skipped as well. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'dist-web', 'out', 'data', 'coverage', 'release', 'test-results']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || NOT_SOURCE.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

function importedPackages(): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT)) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // a probe another test removed meanwhile
      throw error;
    }
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (/^[./#]/.test(specifier) || isBuiltin(specifier)) continue;
      const name = packageOf(specifier);
      users.set(name, [...(users.get(name) ?? []), path.relative(ROOT, file)]);
    }
  }
  return users;
}

describe('package.json', () => {
  it('declares every package the code imports', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
    const imported = importedPackages();
    // The scan sees the code: the server's, the renderer's and the tests' main packages are among its finds.
    expect([...imported.keys()]).toEqual(expect.arrayContaining(['fastify', 'react', 'zod', 'vitest', 'electron', 'jose']));
    const undeclared = [...imported].filter(([name]) => !declared.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(undeclared).toEqual([]);
  });
});
