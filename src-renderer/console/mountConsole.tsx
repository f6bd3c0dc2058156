/**
 * Entry of the console renderer (desktop platform only; the web bundle never loads this chunk).
 * Finds the host's ConsoleApi, builds the stores over it and renders the console.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './ConsoleApp.tsx';
import { findConsoleApi } from './consoleApi.ts';
import { createConsoleStores } from './state/stores.ts';
import { installTypeAhead } from './typeAhead.ts';
import '../staff/staff.css';
import './console.css';

export function mountConsole(container: HTMLElement): void {
  const api = findConsoleApi();
  const root = createRoot(container);
  if (!api) {
    root.render(
      <main className="console-centre">
        <h1 className="heading-l">Petitions staff console</h1>
        <p role="alert">This page must be opened by the console (its bridge to the console is missing).</p>
      </main>,
    );
    return;
  }
  document.title = 'Petitions staff console';
  installTypeAhead();
  const stores = createConsoleStores(api);
  root.render(
    <StrictMode>
      <ConsoleApp stores={stores} />
    </StrictMode>,
  );
}
