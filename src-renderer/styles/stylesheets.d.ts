// Components import their stylesheets for the effect alone (`import './staff.css'`), and Vite bundles them.
// TypeScript checks that every side-effect import resolves (noUncheckedSideEffectImports, on by default
// since TypeScript 6): this says that a `.css` module exists and exports nothing.
declare module '*.css' {}
