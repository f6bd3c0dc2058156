/**
 * The installed console's main process: Electron lifecycle and wiring only. Everything else is the
 * Electron-free runtime of src-main/node (the same code `npm run console:browser` runs).
 */
import path from 'node:path';
import type { BrowserWindow} from 'electron';
import { app, Notification, shell } from 'electron';
import { CONSOLE_LOOPBACK_REDIRECT_URI } from '../../src-shared/console/sign-in.ts';
import { createSecretStore } from '../node/auth/secret-store.ts';
import { createConsoleCore } from '../node/console-core.ts';
import type { EventSink } from '../node/ports.ts';
import { createConsoleRuntime } from '../node/runtime.ts';
import { APP_ENTRY_URL, APP_ORIGIN, consoleCsp } from '../node/security/app-protocol.ts';
import { externalHostsFor } from '../node/security/navigation.ts';
import { registerIpc } from './ipc.ts';
import { registerAppScheme, serveAppScheme } from './protocol.ts';
import { safeStorageCipher } from './secrets.ts';
import { initialUpdateSignal, quitAndInstall, startUpdater } from './updater.ts';
import { createConsoleWindow, hardenContents, hardenSessions } from './window.ts';

/** The backend the build was made for (PETITIONS_API_URL at build time, electron.vite.config.ts). */
declare const __PETITIONS_API_URL__: string;
const apiBaseUrl = process.env.PETITIONS_API_URL ?? __PETITIONS_API_URL__;
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const appOrigins = devServerUrl ? [APP_ORIGIN, new URL(devServerUrl).origin] : [APP_ORIGIN];
const log = (message: string) => console.log(`[console] ${message}`);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  let window: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('window-all-closed', () => app.quit());

  void app.whenReady().then(async () => {
    hardenSessions();
    hardenContents(appOrigins, externalHostsFor(apiBaseUrl));
    serveAppScheme(path.join(import.meta.dirname, '../renderer'), consoleCsp({ imageOrigins: [new URL(apiBaseUrl).origin] }));

    const events: EventSink = {
      emit(event, payload) {
        if (window && !window.isDestroyed()) window.webContents.send(event, payload);
      },
    };
    const userData = app.getPath('userData');
    const runtime = createConsoleRuntime({
      dataDir: process.env.CONSOLE_DATA_DIR ?? path.join(userData, 'console-data'),
      apiBaseUrl,
      redirectUri: process.env.CONSOLE_REDIRECT_URI ?? CONSOLE_LOOPBACK_REDIRECT_URI,
      secrets: createSecretStore(path.join(userData, 'session.sealed'), safeStorageCipher),
      openExternal: (url) => shell.openExternal(url),
      notify: (title, body) => {
        if (Notification.isSupported()) new Notification({ title, body }).show();
      },
      updates: { initial: initialUpdateSignal(), quitAndInstall },
      createCore: createConsoleCore,
      events,
      log,
    });
    registerIpc(runtime.handlers, appOrigins, (channel, error) => log(`${channel} failed: ${String(error)}`));
    await runtime.start();
    startUpdater(runtime.updates, log);

    window = createConsoleWindow(devServerUrl ?? APP_ENTRY_URL);
    // Let the core finish its transaction and close the database before the process ends.
    let closed = false;
    app.on('before-quit', (event) => {
      if (closed) return;
      event.preventDefault();
      void runtime
        .close()
        .catch((error: unknown) => log(`closing failed: ${String(error)}`))
        .finally(() => {
          closed = true;
          app.quit();
        });
    });
  });
}
