/**
 * The build configs' walk of the module graph (vite.config.ts's entry file, electron.vite.config.ts's workspace
 * frame): which modules a build reaches through static imports alone.
 */

/** What the bundler knows of a module: the ids it imports statically. */
type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null;

/** Every module the `roots` import statically, directly or not, the roots included. */
export function staticImportClosure(roots: readonly string[], moduleInfo: ModuleInfoOf): Set<string> {
  const found = new Set<string>();
  const queue = [...roots];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (found.has(id)) continue;
    found.add(id);
    queue.push(...(moduleInfo(id)?.importedIds ?? []));
  }
  return found;
}
