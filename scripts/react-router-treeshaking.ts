/**
 * Lets the bundler drop the parts of react-router the web app does not use (docs/operations.md#javascript-weight).
 *
 * react-router's published modules create `Link`, `NavLink`, `Form` and a few others at the top level with
 * `React.forwardRef(...)` and then assign their `displayName`. Neither is marked free of side effects, so
 * every build kept them and everything they reach (link prefetching, view transitions, forms, scroll
 * restoration): about 4 KB gzip of the first download, on every page, used by nothing. This transform
 * marks those calls `@__PURE__` and removes the `displayName` assignments (read only by React's developer
 * tools) in react-router's own files, so tree-shaking keeps exactly what the app imports. If a new
 * react-router version writes them differently, nothing breaks: the build is merely larger, and the
 * budget test (tests/renderer-unit/bundle-budget.test.ts) says so.
 */
import type { Plugin } from 'vite';

const REACT_ROUTER_MODULE = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].+\.mjs$/;
const FORWARD_REF_AT_TOP_LEVEL = /^((?:var|const|let) \w+ = )(React\d*\.forwardRef\()/gm;
const DISPLAY_NAME_AT_TOP_LEVEL = /^\w+\.displayName = "[^"\n]*";$/gm;

export function reactRouterTreeShaking(): Plugin {
  return {
    name: 'petitions:react-router-tree-shaking',
    apply: 'build',
    transform: {
      filter: { id: REACT_ROUTER_MODULE },
      handler(code) {
        const marked = code.replace(FORWARD_REF_AT_TOP_LEVEL, '$1/* @__PURE__ */ $2').replace(DISPLAY_NAME_AT_TOP_LEVEL, '');
        return marked === code ? null : { code: marked, map: null };
      },
    },
  };
}
