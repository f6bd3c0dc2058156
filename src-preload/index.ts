/**
 * The sandboxed preload (CommonJS, `out/preload/index.cjs`): exposes the contract's typed API as
 * `window.consoleApi` and nothing else. Listeners never see Electron's event object (it carries the
 * sender and would leak ipcRenderer).
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcResult } from '../src-shared/console/ipc-contract.ts';
import { buildConsoleApi } from './api.ts';

const api = buildConsoleApi(
  (channel, request) => ipcRenderer.invoke(channel, request) as Promise<IpcResult<unknown>>,
  (event, listener) => {
    const wrapped = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, wrapped);
    return () => {
      ipcRenderer.removeListener(event, wrapped);
    };
  },
);

contextBridge.exposeInMainWorld('consoleApi', api);
