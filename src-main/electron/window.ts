/**
 * The console window and Electron's security checklist: isolated, sandboxed renderer without Node;
 * no navigation away from the app, no new windows, no webviews, no permissions; external links
 * only through the allow-list into the system browser.
 */
import path from 'node:path';
import { app, BrowserWindow, session, shell, type WebContents } from 'electron';
import { isAllowedExternalUrl, isAllowedNavigation } from '../node/security/navigation.ts';

export const WINDOW_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  spellcheck: true,
} as const;

export function hardenSessions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.setDevicePermissionHandler(() => false);
}

export function hardenContents(appOrigins: readonly string[], externalHosts: readonly string[]): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAllowedNavigation(url, appOrigins)) {
        event.preventDefault();
        if (isAllowedExternalUrl(url, externalHosts)) void shell.openExternal(url);
      }
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAllowedNavigation(url, appOrigins)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternalUrl(url, externalHosts)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

export function createConsoleWindow(entryUrl: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Petitions Console',
    webPreferences: {
      ...WINDOW_WEB_PREFERENCES,
      preload: path.join(import.meta.dirname, '../preload/index.cjs'),
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(entryUrl);
  return window;
}
