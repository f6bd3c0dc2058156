/**
 * When the console updates itself. electron-updater (src-main/electron/updater.ts) checks GitHub
 * Releases on start and downloads in the background; this pure policy decides what the user sees
 * and when a restart may happen: never while the outbox is sending (a restart mid-request would
 * leave rows in `sending`; safe, but it wastes a retry and looks alarming) and never without the
 * user asking for it.
 */
import type { UpdateStatus } from '../../../src-shared/console/ipc-contract.ts';

/** What the updater library reported last. */
export type UpdaterSignal =
  | { kind: 'unsupported'; reason: string }
  | { kind: 'checking' }
  | { kind: 'none' }
  | { kind: 'available'; version: string }
  | { kind: 'progress'; version: string; percent: number }
  | { kind: 'downloaded'; version: string }
  | { kind: 'error'; message: string };

export interface UpdateContext {
  /** The outbox has rows in `sending` right now. */
  syncing: boolean;
}

export function statusFor(signal: UpdaterSignal, context: UpdateContext): UpdateStatus {
  switch (signal.kind) {
    case 'unsupported':
      return { state: 'unsupported', version: null, message: signal.reason };
    case 'checking':
      return { state: 'checking', version: null, message: null };
    case 'none':
      return { state: 'idle', version: null, message: null };
    case 'available':
      return { state: 'available', version: signal.version, message: `Version ${signal.version} is being downloaded.` };
    case 'progress':
      return { state: 'downloading', version: signal.version, message: `Downloading version ${signal.version}: ${Math.round(signal.percent)}%.` };
    case 'downloaded':
      return {
        state: 'ready',
        version: signal.version,
        message: context.syncing
          ? `Version ${signal.version} is ready. The console can restart once the current sync has finished.`
          : `Version ${signal.version} is ready. Restart the console to use it.`,
      };
    case 'error':
      return { state: 'error', version: null, message: signal.message };
  }
}

export type RestartDecision = { restart: true } | { restart: false; reason: string };

/** The user pressed "Restart to update". */
export function decideRestart(signal: UpdaterSignal, context: UpdateContext): RestartDecision {
  if (signal.kind !== 'downloaded') return { restart: false, reason: 'No update is ready to install.' };
  if (context.syncing) return { restart: false, reason: 'The console is sending queued actions; try again when the sync has finished.' };
  return { restart: true };
}

/** Whether to check at all: packaged builds only, and not when an administrator turned it off. */
export function shouldCheckForUpdates(options: { packaged: boolean; disabledByEnv: boolean; platform: string; appImage: boolean }): UpdaterSignal | null {
  if (!options.packaged) return { kind: 'unsupported', reason: 'Updates apply to the installed console only.' };
  if (options.disabledByEnv) return { kind: 'unsupported', reason: 'Updates are turned off on this computer.' };
  // A deb installed through the package manager is updated by apt; electron-updater handles AppImage.
  if (options.platform === 'linux' && !options.appImage) return { kind: 'unsupported', reason: 'Updated by your package manager.' };
  return null;
}
