/**
 * Holds the updater's last signal and answers `update:status` / `update:restart` with the pure
 * policy of update-policy.ts. The Electron glue feeds it signals; console:browser feeds it one
 * "unsupported" signal and it stays there.
 */
import type { UpdateStatus } from '../../../src-shared/console/ipc-contract.ts';
import { IpcFailure } from '../ipc-failure.ts';
import { decideRestart, statusFor, type UpdaterSignal } from './update-policy.ts';

export interface UpdateController {
  signal(signal: UpdaterSignal): void;
  /** The outbox's sending count changed (from `outbox:changed`). */
  setSyncing(syncing: boolean): void;
  status(): UpdateStatus;
  restart(): Promise<{ ok: true }>;
}

export function createUpdateController(deps: {
  initial: UpdaterSignal;
  /** Quits and installs the downloaded version (electron-updater's quitAndInstall). */
  quitAndInstall: () => void;
  onStatus: (status: UpdateStatus) => void;
}): UpdateController {
  let last = deps.initial;
  let syncing = false;
  const publish = () => deps.onStatus(statusFor(last, { syncing }));
  return {
    signal(signal) {
      last = signal;
      publish();
    },
    setSyncing(value) {
      if (value === syncing) return;
      syncing = value;
      if (last.kind === 'downloaded') publish();
    },
    status: () => statusFor(last, { syncing }),
    async restart() {
      const decision = decideRestart(last, { syncing });
      if (!decision.restart) throw new IpcFailure('failed', decision.reason);
      // Answer first; the app quits right after.
      setTimeout(deps.quitAndInstall, 50);
      return { ok: true as const };
    },
  };
}
