/** Registers one ipcMain handler per contract channel; the checks live in the Electron-free dispatcher. */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS, type IpcHandlers } from '../../src-shared/console/ipc-contract.ts';
import { dispatch, type SenderInfo, type TrustedOrigins } from '../node/ipc/dispatch.ts';

export function senderOf(event: IpcMainInvokeEvent): SenderInfo | null {
  const frame = event.senderFrame;
  if (!frame) return null;
  return { url: frame.url, isMainFrame: frame.parent === null && frame === event.sender.mainFrame };
}

export function registerIpc(handlers: IpcHandlers, trusted: TrustedOrigins, onError: (channel: string, error: unknown) => void): void {
  for (const channel of Object.keys(IPC_CHANNELS)) {
    ipcMain.handle(channel, (event, payload: unknown) => dispatch(handlers, senderOf(event), trusted, channel, payload, onError));
  }
}
