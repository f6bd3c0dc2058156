/**
 * The compiler keeps each layer to its runtime (README.md "How it is built"): `npm run typecheck` builds
 * every layer with its own tsconfig.json. A probe file written into a layer's folder is compiled here with
 * that layer's options: renderer code that imports a Node module and shared code that touches `window` do
 * not compile, while the same probes compile in a layer that may use that runtime, so each failure is the
 * layer's configuration at work and not a broken probe.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LAYERS = ['src-shared', 'src-renderer', 'src-server', 'src-main/node', 'src-main/electron', 'src-preload'];

const PROBES = {
  nodeImport: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  nodeGlobal: 'export const mode = process.env.NODE_ENV;\n',
  windowUse: 'export const href = window.location.href;\n',
};

const probeDirs: string[] = [];
afterEach(() => {
  for (const dir of probeDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Parsed library and package declarations, shared by the probes' programs (parsing them is most of the cost). */
const parsedDeclarations = new Map<string, ts.SourceFile | undefined>();
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (!fileName.endsWith('.d.ts')) return getSourceFile(fileName, languageVersion, ...rest);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!parsedDeclarations.has(key)) parsedDeclarations.set(key, getSourceFile(fileName, languageVersion, ...rest));
    return parsedDeclarations.get(key);
  };
  return host;
}

const describeDiagnostic = (diagnostic: ts.Diagnostic) =>
  `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;

function layerConfig(configFile: string): ts.ParsedCommandLine {
  const config = ts.getParsedCommandLineOfConfigFile(configFile, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(describeDiagnostic(diagnostic));
    },
  });
  if (!config) throw new Error(`${configFile} could not be read`);
  expect(config.errors.map(describeDiagnostic)).toEqual([]);
  return config;
}

/** The errors the layer's own compiler options give a probe file placed in a fresh folder inside the layer. */
function compileInLayer(layer: string, source: string): string[] {
  const dir = fs.mkdtempSync(path.join(ROOT, layer, 'layer-probe-'));
  probeDirs.push(dir);
  const probe = path.join(dir, 'probe.ts');
  fs.writeFileSync(probe, source);
  const config = layerConfig(path.join(ROOT, layer, 'tsconfig.json'));
  // Inside the layer's include set, so `npm run typecheck` would check the file with exactly these options.
  expect(config.fileNames).toContain(probe);
  const options = { ...config.options, noEmit: true };
  const program = ts.createProgram({ rootNames: [probe], options, projectReferences: config.projectReferences, host: cachingHost(options) });
  return ts.getPreEmitDiagnostics(program).map(describeDiagnostic);
}

describe('a tsconfig per layer', () => {
  it('are all built by npm run typecheck', () => {
    const solution = layerConfig(path.join(ROOT, 'tsconfig.json'));
    const referenced = (solution.projectReferences ?? []).map((reference) => path.relative(ROOT, reference.path));
    expect(referenced).toEqual(expect.arrayContaining(LAYERS));
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.typecheck).toBe('tsc --build');
  });

  it('refuses a Node module and Node globals in renderer code', () => {
    expect(compileInLayer('src-renderer', PROBES.nodeImport)).toEqual([
      expect.stringContaining("TS2591: Cannot find name 'node:fs'"),
    ]);
    expect(compileInLayer('src-renderer', PROBES.nodeGlobal)).toEqual([expect.stringContaining("Cannot find name 'process'")]);
  });

  it('refuses window, and Node, in shared code', () => {
    expect(compileInLayer('src-shared', PROBES.windowUse)).toEqual([expect.stringContaining("TS2304: Cannot find name 'window'")]);
    expect(compileInLayer('src-shared', PROBES.nodeImport)).toEqual([
      expect.stringContaining("TS2591: Cannot find name 'node:fs'"),
    ]);
    expect(compileInLayer('src-shared', PROBES.nodeGlobal)).toEqual([expect.stringContaining("Cannot find name 'process'")]);
  });

  it('accepts the same probes where that runtime belongs', () => {
    expect(compileInLayer('src-server', PROBES.nodeImport)).toEqual([]);
    expect(compileInLayer('src-main/node', PROBES.nodeGlobal)).toEqual([]);
    expect(compileInLayer('src-renderer', PROBES.windowUse)).toEqual([]);
  });

  it('keeps the DOM out of the server and the console services', () => {
    expect(compileInLayer('src-server', PROBES.windowUse)).toEqual([expect.stringContaining("Cannot find name 'window'")]);
    expect(compileInLayer('src-main/node', PROBES.windowUse)).toEqual([expect.stringContaining("Cannot find name 'window'")]);
  });
});
