import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../src-shared/console/ipc-contract.ts';
import { createUpdateController } from '../../src-main/node/updates/update-controller.ts';
import { decideRestart, shouldCheckForUpdates, statusFor } from '../../src-main/node/updates/update-policy.ts';
import { IpcFailure } from '../../src-main/node/ipc-failure.ts';

describe('update policy', () => {
  it('checks only in the installed console, unless turned off, and leaves deb installs to apt', () => {
    expect(shouldCheckForUpdates({ packaged: false, disabledByEnv: false, platform: 'win32', appImage: false })).toMatchObject({ kind: 'unsupported' });
    expect(shouldCheckForUpdates({ packaged: true, disabledByEnv: true, platform: 'win32', appImage: false })).toMatchObject({ kind: 'unsupported' });
    expect(shouldCheckForUpdates({ packaged: true, disabledByEnv: false, platform: 'linux', appImage: false })).toMatchObject({ kind: 'unsupported' });
    expect(shouldCheckForUpdates({ packaged: true, disabledByEnv: false, platform: 'linux', appImage: true })).toBeNull();
    expect(shouldCheckForUpdates({ packaged: true, disabledByEnv: false, platform: 'darwin', appImage: false })).toBeNull();
  });

  it('offers a restart only for a downloaded update and never mid-sync', () => {
    const ready = { kind: 'downloaded' as const, version: '1.2.0' };
    expect(decideRestart(ready, { syncing: false })).toEqual({ restart: true });
    expect(decideRestart(ready, { syncing: true })).toMatchObject({ restart: false });
    expect(decideRestart({ kind: 'progress', version: '1.2.0', percent: 50 }, { syncing: false })).toMatchObject({ restart: false });
    expect(decideRestart({ kind: 'none' }, { syncing: false })).toMatchObject({ restart: false });
    expect(statusFor(ready, { syncing: true })).toMatchObject({ state: 'ready', version: '1.2.0', message: expect.stringContaining('once the current sync has finished') });
    expect(statusFor({ kind: 'progress', version: '1.2.0', percent: 41.6 }, { syncing: false })).toMatchObject({ state: 'downloading', message: expect.stringContaining('42%') });
  });
});

describe('update controller', () => {
  it('publishes status changes and restarts only when the outbox is not sending', async () => {
    const published: UpdateStatus[] = [];
    let installs = 0;
    const controller = createUpdateController({ initial: { kind: 'checking' }, quitAndInstall: () => (installs += 1), onStatus: (s) => published.push(s) });
    await expect(controller.restart()).rejects.toBeInstanceOf(IpcFailure);
    controller.signal({ kind: 'downloaded', version: '2.0.0' });
    controller.setSyncing(true);
    expect(published.map((s) => s.state)).toEqual(['ready', 'ready']);
    await expect(controller.restart()).rejects.toThrow(/sending queued actions/);
    controller.setSyncing(false);
    expect(await controller.restart()).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(installs).toBe(1);
  });
});
