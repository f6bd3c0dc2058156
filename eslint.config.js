// Lint rules, including the layer boundaries: shared code runs anywhere, the server never reaches into
// the renderer or Electron code, and the renderer never touches Node or Electron.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'child_process', 'url', 'util', 'stream', 'worker_threads'];
const layer = (name) => [`**/${name}/**`, `**/${name}`];

const SERVER_IMPORTS = [
  { group: [...layer('src-renderer'), ...layer('src-main'), ...layer('src-preload')], message: 'The server never imports renderer, preload or main code.' },
  { group: ['electron'], message: 'The server does not run in Electron.' },
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
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-main'), ...layer('src-preload')], message: 'src-shared imports no other layer.' },
            { group: NODE_BUILTINS, message: 'src-shared runs anywhere: no Node APIs.' },
            { group: ['electron', 'react', 'react-dom'], message: 'src-shared runs anywhere.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'sessionStorage', 'process', 'Buffer', '__dirname'],
    },
  },
  {
    files: ['src-server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: SERVER_IMPORTS }] },
  },
  {
    // Development-only code (src-server/dev) is wired in by the composition root alone.
    files: ['src-server/**/*.ts'],
    ignores: ['src-server/main.ts', 'src-server/dev/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...SERVER_IMPORTS, { group: layer('dev'), message: 'Only the composition root (src-server/main.ts) imports development-only code.' }] },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...layer('src-server'), ...layer('src-main'), ...layer('src-preload')], message: 'The renderer talks to the server over HTTP and to Electron through the preload bridge only.' },
            { group: [...NODE_BUILTINS, 'electron', 'better-sqlite3'], message: 'The renderer is browser code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-main')], message: 'The preload bridge depends on src-shared and electron only.' },
            // A sandboxed preload can require only electron (and a few built-ins we do not need).
            { group: NODE_BUILTINS, message: 'The preload is sandboxed: no Node APIs.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-preload')], message: 'Main-process code talks to the server over HTTP.' }] },
      ],
    },
  },
  {
    // Services under src-main/node run under plain Node too (tests, console:browser): no Electron.
    files: ['src-main/node/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...layer('src-server'), ...layer('src-renderer'), ...layer('src-preload')], message: 'Main-process code talks to the server over HTTP.' },
            { group: ['electron', 'electron/*', 'electron-updater', ...layer('src-main/electron')], message: 'src-main/node never imports Electron: it runs under plain Node.' },
          ],
        },
      ],
    },
  },
);
