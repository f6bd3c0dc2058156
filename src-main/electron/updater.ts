/** electron-updater against the GitHub Releases feed; what to show and when to restart is update-policy.ts. */
import { app } from 'electron';
import electronUpdater from 'electron-updater';
import type { UpdateController } from '../node/updates/update-controller.ts';
import { shouldCheckForUpdates, type UpdaterSignal } from '../node/updates/update-policy.ts';

const { autoUpdater } = electronUpdater;

export function initialUpdateSignal(): UpdaterSignal {
  return (
    shouldCheckForUpdates({
      packaged: app.isPackaged,
      disabledByEnv: process.env.PETITIONS_CONSOLE_NO_UPDATES === '1',
      platform: process.platform,
      appImage: Boolean(process.env.APPIMAGE),
    }) ?? { kind: 'checking' }
  );
}

export function quitAndInstall(): void {
  autoUpdater.quitAndInstall();
}

/** Checks once on start; downloads in the background; the user decides when to restart. */
export function startUpdater(controller: UpdateController, log: (message: string) => void): void {
  if (controller.status().state === 'unsupported') return;
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.on('checking-for-update', () => controller.signal({ kind: 'checking' }));
  autoUpdater.on('update-not-available', () => controller.signal({ kind: 'none' }));
  let incoming = '';
  autoUpdater.on('update-available', (info) => {
    incoming = info.version;
    controller.signal({ kind: 'available', version: info.version });
  });
  autoUpdater.on('download-progress', (progress) => controller.signal({ kind: 'progress', version: incoming, percent: progress.percent }));
  autoUpdater.on('update-downloaded', (info) => controller.signal({ kind: 'downloaded', version: info.version }));
  autoUpdater.on('error', (error) => {
    log(`update check failed: ${error.message}`);
    controller.signal({ kind: 'error', message: 'Could not check for updates.' });
  });
  void autoUpdater.checkForUpdates().catch(() => undefined);
}
