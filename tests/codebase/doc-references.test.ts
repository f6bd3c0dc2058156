/**
 * Every reference in the code can be followed inside the repository (issue #19): comments cite the
 * product's own documents by file and heading (docs/README.md#citing-these-documents-from-code),
 * never a numbered section of a document that is not here. RFC sections are fine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  headingAnchor,
  headingAnchors,
  markdownLinkProblems,
  repositoryAt,
  sourceProblems,
  textSourceFiles,
  type Repository,
} from './doc-references.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_FOLDERS = ['src-shared', 'src-server', 'src-renderer', 'src-main', 'src-preload', 'scripts', 'tests'];
/** Built at run time, so the samples below are not references of this file. */
const SECTION = '\u00a7';
const MD = '.md';

/** A repository of two documents, for the samples. */
const SAMPLE: Repository = {
  exists: (file) => file === `docs/rules${MD}` || file === `README${MD}`,
  anchorsOf: (file) => (file === `docs/rules${MD}` ? new Set(['daily-limit']) : new Set()),
};

describe('heading anchors', () => {
  it('are computed as GitHub computes them', () => {
    expect(headingAnchor('If-Match and ETag')).toBe('if-match-and-etag');
    expect(headingAnchor("The console's outbox and sync")).toBe('the-consoles-outbox-and-sync');
    expect(headingAnchor('The console:browser bridge')).toBe('the-consolebrowser-bridge');
    expect(headingAnchor('Sign-in and 401')).toBe('sign-in-and-401');
    expect(headingAnchor('Deployment: N nodes on one PostgreSQL')).toBe('deployment-n-nodes-on-one-postgresql');
    expect(headingAnchor('Running it without Electron: `npm run console:browser`')).toBe('running-it-without-electron-npm-run-consolebrowser');
  });

  it('number repeated headings and skip fenced code', () => {
    const markdown = ['# Rules', '## Limits', '```', '## Not a heading', '```', '### Limits', '## Limits ##'].join('\n');
    expect([...headingAnchors(markdown)]).toEqual(['rules', 'limits', 'limits-1', 'limits-2']);
  });
});

describe('references in source text', () => {
  it('refuse a section sign unless the line names its RFC', () => {
    const text = [`// ${SECTION}4: closed stays closed`, `// RFC 8252 ${SECTION}7.3: loopback redirect`].join('\n');
    expect(sourceProblems(SAMPLE, 'src-shared/a.ts', text)).toEqual([
      { file: 'src-shared/a.ts', line: 1, problem: `cites a section sign without naming the RFC: // ${SECTION}4: closed stays closed` },
    ]);
  });

  it('refuse documents that are not in the repository and headings that do not exist', () => {
    const text = [
      `// the state machine of console-architecture${MD} 4.2`,
      `// three a day (docs/rules${MD}#daily-limit), see README${MD}`,
      `// docs/rules${MD}#closure`,
      '// https://github.com/owner/repo/blob/main/docs/guide' + `${MD} is a web address`,
    ].join('\n');
    expect(sourceProblems(SAMPLE, 'src-server/b.ts', text).map((p) => [p.line, p.problem])).toEqual([
      [1, `names console-architecture${MD}, which is not in the repository`],
      [3, `cites docs/rules${MD}#closure, but docs/rules${MD} has no such heading`],
    ]);
  });

  it('refuse Markdown links to missing files and headings, and leave web addresses alone', () => {
    const text = `[a](rules${MD}#daily-limit) [b](missing${MD}) [c](rules${MD}#nowhere) [d](https://example.org/x${MD}#y)`;
    expect(markdownLinkProblems(SAMPLE, `docs/README${MD}`, text).map((p) => p.problem)).toEqual([
      `links to missing${MD}, which is not in the repository`,
      `links to rules${MD}#nowhere, but docs/rules${MD} has no such heading`,
    ]);
  });
});

describe('the repository', () => {
  const repo = repositoryAt(ROOT);

  it('cites only what is in the repository, from every source file', () => {
    const files = textSourceFiles(ROOT, SOURCE_FOLDERS);
    // The scan reads the real tree: hundreds of files, this one among them.
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('tests/codebase/doc-references.test.ts');
    const texts = files.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')] as const);
    // The code does cite the docs, so a reference pattern that matched nothing would show here.
    const citations = texts.flatMap(([, text]) => text.match(/docs\/[\w-]+\.md#[\w-]+/g) ?? []);
    expect(citations.length).toBeGreaterThan(50);
    expect(texts.flatMap(([file, text]) => sourceProblems(repo, file, text))).toEqual([]);
  });

  it('has Markdown links that reach their files and headings', () => {
    const documents = ['README.md', ...markdownFilesIn('docs')];
    expect(documents).toContain('docs/rules.md');
    expect(documents.flatMap((file) => markdownLinkProblems(repo, file, fs.readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });
});

function markdownFilesIn(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${folder}/${name}`);
}
