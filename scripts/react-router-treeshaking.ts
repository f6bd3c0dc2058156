/**
 * Lets the bundler drop the parts of react-router the web app does not use (docs/operations.md#javascript-weight).
 *
 * react-router's published modules create `Link`, `NavLink`, `Form` and a few others at the top level with
 * `React.forwardRef(...)`, its contexts with `React.createContext(...)` and its data routers' route tree with
 * `React.memo(...)`, and then assign their `displayName`; its render error boundary gets its `contextType` by an
 * assignment after the class. None of it is marked free of side effects, so every build kept them and everything
 * they reach (link prefetching, view transitions, forms, scroll restoration, the data routers' route rendering
 * and error screens): about 7.5 KB gzip of the first download, on every page, used by nothing. This transform
 * marks those calls `@__PURE__`, removes the `displayName` assignments (read only by React's developer tools)
 * and makes the `contextType` a static field of its class, in react-router's own files, so tree-shaking keeps
 * exactly what the app imports. If a new react-router version writes them differently, nothing breaks: the
 * build is merely larger, and the budget test (tests/renderer-unit/bundle-budget.test.ts) says so.
 */
import type { Plugin } from 'vite';

const REACT_ROUTER_MODULE = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].+\.mjs$/;
const PURE_CALL_AT_TOP_LEVEL = /^((?:var|const|let) \w+ = )(React\d*\.(?:forwardRef|memo|createContext)\(|new (?:Set|URL)\(|Object\.getOwnPropertyNames\()/gm;
const DISPLAY_NAME_AT_TOP_LEVEL = /^\w+\.displayName = "[^"\n]*";$/gm;
const CONTEXT_TYPE_AT_TOP_LEVEL = /^(\w+)\.contextType = (\w+);\n/gm;

/** `X.contextType = C;` after `var X = class extends … {` becomes `static contextType = C;` inside it. */
function contextTypesAsStaticFields(code: string): string {
  let result = code;
  for (const [assignment, name, context] of code.matchAll(CONTEXT_TYPE_AT_TOP_LEVEL)) {
    const head = new RegExp(`^((?:var|const|let) ${name} = class extends [\\w.]+ \\{)$`, 'm');
    if (!head.test(result)) continue;
    result = result.replace(assignment, '').replace(head, `$1\n  static contextType = ${context};`);
  }
  return result;
}

export function reactRouterTreeShaking(): Plugin {
  return {
    name: 'petitions:react-router-tree-shaking',
    apply: 'build',
    transform: {
      filter: { id: REACT_ROUTER_MODULE },
      handler(code) {
        const marked = contextTypesAsStaticFields(
          code.replace(PURE_CALL_AT_TOP_LEVEL, '$1/* @__PURE__ */ $2').replace(DISPLAY_NAME_AT_TOP_LEVEL, ''),
        );
        return marked === code ? null : { code: marked, map: null };
      },
    },
  };
}
