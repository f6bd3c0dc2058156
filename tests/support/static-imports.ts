/**
 * What an ES module loads before it runs, read with es-module-lexer: the bundle-weight checks
 * (npm run perf:web, the console build test) follow these from an entry to find the initial JavaScript.
 */
import { init as initLexer, parse as parseModule } from 'es-module-lexer';

export { initLexer };

/** The specifiers of `import … from`, `export … from` and bare `import '…'` (not `import()`); await `initLexer()` first. */
export function staticImports(code: string): string[] {
  const [imports] = parseModule(code);
  return imports.flatMap((found) => ((found.type === 'static' || found.type === 'reexport-star') && found.phase === null ? [found.specifier] : []));
}
