/**
 * Entry of the staff console's renderer (the console build's index.html). It carries the console
 * and its shared parts only: the web app's router, pages and shell are in the web build's entry
 * (src-renderer/main.tsx), which the console never loads. Figures: `npm run perf:console`.
 */
import { mountConsole } from './mountConsole.tsx';
import '../styles/app.css';

// As the web entry: global handlers only log (a syntax-style error usually means a chunk failed to load).
window.addEventListener('error', (event) => {
  console.error('Unhandled error', event.error ?? event.message);
});
window.addEventListener('unhandledrejection', (event) => {
  console.error('Unhandled promise rejection', event.reason);
});

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
mountConsole(container);
