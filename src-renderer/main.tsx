/** Entry of the web build (the staff console has its own: console/main.tsx): global handlers, the fatal error boundary, the router and the app. */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App.tsx';
import { FatalErrorBoundary } from './components/ErrorBoundary.tsx';
import { setLinkPrefetcher } from './components/Link.tsx';
import { prefetchRoute } from './routeModules.ts';
import { startBootRead } from './services/bootReads.ts';
import './styles/app.css';

// Global handlers only log. A syntax-style error usually means a chunk failed to load.
window.addEventListener('error', (event) => {
  console.error('Unhandled error', event.error ?? event.message);
  if (/SyntaxError|Unexpected token/.test(String(event.message))) {
    console.warn('This may be a resource load issue: a script may have failed to download. Reloading may help.');
  }
});
window.addEventListener('unhandledrejection', (event) => {
  console.error('Unhandled promise rejection', event.reason);
});

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

prefetchRoute(window.location.pathname);
startBootRead(window.location.pathname);
// Pointing at a link starts loading its page, so following it seldom shows a loading screen.
setLinkPrefetcher(prefetchRoute);
// The first render replaces the static shell of index.html (same header, same geometry). As a
// transition React renders it in short slices instead of one long task, so the page stays responsive
// (Total Blocking Time) while the shell is already on screen; the result is the same.
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <FatalErrorBoundary>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </FatalErrorBoundary>
    </StrictMode>,
  );
});
