/**
 * Finds references a newcomer who clones the repository cannot follow: a section sign that is not an
 * RFC's, a Markdown document that is not in the repository, or a `docs/<file>.md#<anchor>` whose
 * heading does not exist (docs/README.md#citing-these-documents-from-code). Read as plain text, line
 * by line, so it sees comments, strings and test names alike.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Written as an escape so this file does not cite one itself. */
const SECTION_SIGN = '\u00a7';

/** A Markdown file named in text, with its anchor if any: `docs/rules.md#daily-limit`, `README.md`. */
const DOCUMENT_REFERENCE = /(?<![\w./-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\w-]+))?(?![\w/])/g;

/** A Markdown link or image target: `[text](target)`. */
const MARKDOWN_LINK = /\]\(([^()\s]*)\)/g;

const TEXT_FILE = /\.(?:[cm]?[jt]sx?|css|html)$/;

/**
 * The anchor GitHub gives a heading: lower case, every character but letters, digits, spaces,
 * hyphens and underscores dropped, spaces turned into hyphens. Inline code keeps its text and a
 * link keeps its label.
 */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every heading anchor of a Markdown text; a repeated heading gets `-1`, `-2`, … as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface Problem {
  file: string;
  line: number;
  problem: string;
}

/** What the checks need to know about the repository. */
export interface Repository {
  /** Whether a root-relative path (forward slashes) is a file of the repository. */
  exists(file: string): boolean;
  /** The heading anchors of a Markdown file of the repository. */
  anchorsOf(file: string): Set<string>;
}

/** The root-relative file a reference from `fromFile` names: from the root first, else from the file's folder. */
function resolveDocument(repo: Repository, fromFile: string, reference: string): string | null {
  const candidates = [path.posix.normalize(reference), path.posix.join(path.posix.dirname(fromFile), reference)];
  return candidates.find((candidate) => !candidate.startsWith('..') && repo.exists(candidate)) ?? null;
}

function checkReference(repo: Repository, file: string, line: number, reference: string, anchor: string | undefined): Problem | null {
  const target = resolveDocument(repo, file, reference);
  if (!target) return { file, line, problem: `names ${reference}, which is not in the repository` };
  if (anchor !== undefined && !repo.anchorsOf(target).has(anchor)) {
    return { file, line, problem: `cites ${target}#${anchor}, but ${target} has no such heading` };
  }
  return null;
}

/** The problems of one source file's text. */
export function sourceProblems(repo: Repository, file: string, text: string): Problem[] {
  const problems: Problem[] = [];
  text.split('\n').forEach((content, index) => {
    const line = index + 1;
    if (content.includes(SECTION_SIGN) && !content.includes('RFC')) {
      problems.push({ file, line, problem: `cites a section sign without naming the RFC: ${content.trim()}` });
    }
    for (const match of content.matchAll(DOCUMENT_REFERENCE)) {
      const problem = checkReference(repo, file, line, match[1] ?? '', match[2]);
      if (problem) problems.push(problem);
    }
  });
  return problems;
}

/** The problems of one Markdown file's relative links (web addresses are left alone). */
export function markdownLinkProblems(repo: Repository, file: string, text: string): Problem[] {
  const problems: Problem[] = [];
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(MARKDOWN_LINK)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [reference = '', anchor] = target.split('#');
      const linked = reference === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), reference.replace(/\/$/, '')));
      if (!repo.exists(linked)) {
        problems.push({ file, line: index + 1, problem: `links to ${target}, which is not in the repository` });
      } else if (anchor !== undefined && linked.endsWith('.md') && !repo.anchorsOf(linked).has(anchor)) {
        problems.push({ file, line: index + 1, problem: `links to ${target}, but ${linked} has no such heading` });
      }
    }
  });
  return problems;
}

/** The repository on disk, below `root`. */
export function repositoryAt(root: string): Repository {
  const anchors = new Map<string, Set<string>>();
  return {
    exists: (file) => fs.existsSync(path.join(root, file)),
    anchorsOf(file) {
      let found = anchors.get(file);
      if (!found) anchors.set(file, (found = headingAnchors(fs.readFileSync(path.join(root, file), 'utf8'))));
      return found;
    },
  };
}

/** Every text source file under the given folders of `root`, as root-relative paths with forward slashes. */
export function textSourceFiles(root: string, folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => TEXT_FILE.test(file) && !file.includes('/node_modules/')),
  );
}
