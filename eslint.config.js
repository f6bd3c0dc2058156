// Lint rules, including the layer boundaries: shared code runs anywhere, the server never reaches into
// the renderer or Electron code, and the renderer never touches Node or Electron. The compiler enforces
// the same runtimes per layer (each layer's tsconfig.json); these rules add what it cannot see: which
// packages and Node modules a layer may import at all. README.md "How it is built" describes the layers.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A regex source matching these packages and any subpath of them (`fs`, `fs/promises`). */
const packagesSource = (names) => `(?:${names.map(escapeRegex).join('|')})(?:/.*)?`;
/** Every Node built-in, with or without the `node:` prefix, and their subpaths (Node lists them itself). */
const NODE_BUILTINS_SOURCE = `node:.*|${packagesSource(builtinModules.map((name) => name.replace(/^node:/, '')))}`;

/** The only packages src-shared imports: it runs in the browser, the server and the console alike. */
const SHARED_PACKAGES = ['zod'];
/** Packages that work only inside Electron. */
const ELECTRON_PACKAGES = ['electron', 'electron-updater'];

const layer = (name) => [`**/${name}/**`, `**/${name}`];
const nodeBuiltins = (message) => ({ regex: `^(?:${NODE_BUILTINS_SOURCE})$`, message });
const electronPackages = (message) => ({ regex: `^${packagesSource(ELECTRON_PACKAGES)}$`, message });
/** Any package other than these (relative paths and `#` imports pass; Node built-ins are left to nodeBuiltins). */
const packagesOtherThan = (allowed, message) => ({
  regex: `^(?![./#])(?!(?:${NODE_BUILTINS_SOURCE})$)(?!${packagesSource(allowed)}$)`,
  message,
});
const restrictImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

const SERVER_IMPORTS = [
  { group: [...layer('src-renderer'), ...layer('src-main'), ...layer('src-preload')], message: 'The server never imports renderer, preload or main code.' },
  electronPackages('The server does not run in Electron.'),
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-web/**', 'out/**', 'data/**', '.tmp/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Tests, scripts and config files: Electron is imported by src-main/electron and src-preload only.
      ...restrictImports(electronPackages('Only src-main/electron and src-preload import Electron.')),
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      ...restrictImports(
        { group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-main'), ...layer('src-preload')], message: 'src-shared imports no other layer.' },
        nodeBuiltins('src-shared runs anywhere: no Node APIs.'),
        packagesOtherThan(SHARED_PACKAGES, `src-shared runs anywhere: it imports only ${SHARED_PACKAGES.join(', ')} (eslint.config.js SHARED_PACKAGES).`),
      ),
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'sessionStorage', 'process', 'Buffer', '__dirname'],
    },
  },
  {
    files: ['src-server/**/*.ts'],
    rules: restrictImports(...SERVER_IMPORTS),
  },
  {
    // Development-only code (src-server/dev) is wired in by the composition root alone.
    files: ['src-server/**/*.ts'],
    ignores: ['src-server/main.ts', 'src-server/dev/**'],
    rules: restrictImports(...SERVER_IMPORTS, { group: layer('dev'), message: 'Only the composition root (src-server/main.ts) imports development-only code.' }),
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrictImports(
      { group: [...layer('src-server'), ...layer('src-main'), ...layer('src-preload')], message: 'The renderer talks to the server over HTTP and to Electron through the preload bridge only.' },
      nodeBuiltins('The renderer is browser code: no Node APIs.'),
      electronPackages('The renderer reaches Electron through the preload bridge only.'),
      { group: ['better-sqlite3'], message: 'The renderer is browser code.' },
      {
        group: ['react-router-dom', 'react-router'],
        importNames: ['Link', 'NavLink'],
        message: "Use Link and NavLink from src-renderer/components/Link.tsx: react-router's carry prefetching the app does not use (docs/operations.md#javascript-weight).",
      },
      {
        group: ['react-router-dom', 'react-router'],
        importNames: ['useNavigate', 'useSearchParams', 'useHref', 'useLinkClickHandler', 'useResolvedPath'],
        message: "Use src-renderer/navigation.ts: react-router's resolve paths against a route tree the app does not have (docs/operations.md#javascript-weight).",
      },
    ),
  },
  {
    files: ['src-preload/**/*.ts'],
    rules: restrictImports(
      { group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-main')], message: 'The preload bridge depends on src-shared and electron only.' },
      // A sandboxed preload can require only electron (and a few built-ins we do not need).
      nodeBuiltins('The preload is sandboxed: no Node APIs.'),
    ),
  },
  {
    files: ['src-main/**/*.ts'],
    rules: restrictImports({ group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-preload')], message: 'Main-process code talks to the server over HTTP.' }),
  },
  {
    // Services under src-main/node run under plain Node too (tests, console:browser): no Electron.
    files: ['src-main/node/**/*.ts'],
    rules: restrictImports(
      { group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-preload')], message: 'Main-process code talks to the server over HTTP.' },
      { group: layer('src-main/electron'), message: 'src-main/node never imports Electron: it runs under plain Node.' },
      electronPackages('src-main/node never imports Electron: it runs under plain Node.'),
    ),
  },
);
