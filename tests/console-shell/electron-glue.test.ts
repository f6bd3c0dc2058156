/**
 * The thin Electron glue (src-main/electron) against a recording stand-in for the `electron` module:
 * the binary cannot run here, so this checks what the glue asks of Electron (window preferences,
 * handlers, refusals). Electron's own behaviour needs the real binary (README, "What was run here").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, type IpcHandlers } from '../../src-shared/console/ipc-contract.ts';

const recorded = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, payload: unknown) => unknown>(),
  appListeners: new Map<string, (...args: unknown[]) => void>(),
  windows: [] as { options: Record<string, unknown>; url?: string }[],
  opened: [] as string[],
  protocolHandler: null as null | ((request: Request) => Promise<Response>),
  privileged: [] as unknown[],
  permission: null as null | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
  permissionCheck: null as null | (() => boolean),
  backend: 'basic_text',
}));

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = { send: () => undefined };
    options: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      recorded.windows.push({ options });
    }
    once() {}
    async loadURL(url: string) {
      recorded.windows.at(-1)!.url = url;
    }
  }
  return {
    app: { on: (name: string, listener: (...args: unknown[]) => void) => recorded.appListeners.set(name, listener) },
    BrowserWindow,
    ipcMain: { handle: (channel: string, handler: (event: unknown, payload: unknown) => unknown) => recorded.handlers.set(channel, handler) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => recorded.privileged.push(...schemes),
      handle: (_scheme: string, handler: (request: Request) => Promise<Response>) => (recorded.protocolHandler = handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof recorded.permission) => (recorded.permission = handler),
        setPermissionCheckHandler: (handler: typeof recorded.permissionCheck) => (recorded.permissionCheck = handler),
        setDevicePermissionHandler: () => undefined,
      },
    },
    shell: { openExternal: async (url: string) => void recorded.opened.push(url) },
    safeStorage: {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => recorded.backend,
      encryptString: (plain: string) => Buffer.from(plain),
      decryptString: (sealed: Buffer) => sealed.toString(),
    },
  };
});

const { registerIpc } = await import('../../src-main/electron/ipc.ts');
const { createConsoleWindow, hardenContents, hardenSessions } = await import('../../src-main/electron/window.ts');
const { registerAppScheme, serveAppScheme } = await import('../../src-main/electron/protocol.ts');
const { safeStorageCipher } = await import('../../src-main/electron/secrets.ts');
const { createSecretStore } = await import('../../src-main/node/auth/secret-store.ts');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'electron-glue-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const session = { user: null, connection: 'signin_needed' as const, lastContactAt: null, queuedForOthers: [] };
const handlers = Object.fromEntries(Object.keys(IPC_CHANNELS).map((c) => [c, async () => session])) as unknown as IpcHandlers;

function invokeEvent(url: string, isMainFrame: boolean) {
  const mainFrame = { url, parent: null };
  const frame = isMainFrame ? mainFrame : { url, parent: mainFrame };
  return { senderFrame: frame, sender: { mainFrame } };
}

describe('Electron glue', () => {
  it('registers one checked handler per contract channel', async () => {
    registerIpc(handlers, ['app://console'], () => undefined);
    expect([...recorded.handlers.keys()].sort()).toEqual(Object.keys(IPC_CHANNELS).sort());
    const handle = recorded.handlers.get('session:get')!;
    expect(await handle(invokeEvent('app://console/index.html', true), {})).toEqual({ ok: true, value: session });
    expect(await handle(invokeEvent('app://console/index.html', false), {})).toMatchObject({ ok: false, code: 'forbidden_sender' });
    expect(await handle(invokeEvent('https://evil.example/', true), {})).toMatchObject({ ok: false, code: 'forbidden_sender' });
    expect(await handle({ senderFrame: null, sender: {} }, {})).toMatchObject({ ok: false, code: 'forbidden_sender' });
  });

  it('creates the window isolated, sandboxed, without Node, with the CommonJS preload, from app://', () => {
    createConsoleWindow('app://console/index.html');
    const { options, url } = recorded.windows.at(-1)!;
    expect(options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, webSecurity: true });
    expect(String((options.webPreferences as { preload: string }).preload)).toMatch(/preload[/\\]index\.cjs$/);
    expect(url).toBe('app://console/index.html');
  });

  it('denies permissions, navigation away, new windows and webviews; allow-listed links go to the system browser', () => {
    hardenSessions();
    let granted: boolean | null = null;
    recorded.permission!(null, 'media', (value) => (granted = value));
    expect(granted).toBe(false);
    expect(recorded.permissionCheck!()).toBe(false);

    hardenContents(['app://console'], ['www.roblox.com']);
    const listeners = new Map<string, (event: { preventDefault: () => void }, url?: string) => void>();
    let openHandler: ((details: { url: string }) => { action: string }) | null = null;
    recorded.appListeners.get('web-contents-created')!({}, {
      on: (name: string, listener: (event: { preventDefault: () => void }, url?: string) => void) => listeners.set(name, listener),
      setWindowOpenHandler: (handler: typeof openHandler) => (openHandler = handler),
    });
    const navigate = (url: string) => {
      let prevented = false;
      listeners.get('will-navigate')!({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('app://console/petitions/2')).toBe(false);
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('https://www.roblox.com/users/1/profile')).toBe(true);
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'https://www.roblox.com/home' })).toEqual({ action: 'deny' });
    expect(recorded.opened).toEqual(['https://www.roblox.com/users/1/profile', 'https://www.roblox.com/home']);
    let webview = false;
    listeners.get('will-attach-webview')!({ preventDefault: () => (webview = true) });
    expect(webview).toBe(true);
  });

  it('serves app:// with the CSP and refuses traversal', async () => {
    registerAppScheme();
    expect(recorded.privileged).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    fs.mkdirSync(path.join(dir, 'renderer'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'secret');
    serveAppScheme(path.join(dir, 'renderer'), "default-src 'none'; script-src 'self'");
    const page = await recorded.protocolHandler!(new Request('app://console/staff/queues'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'");
    expect(await page.text()).toContain('<title>console</title>');
    // The URL parser folds %2e%2e away (→ /secret.txt, not in the build); an encoded slash survives it and is refused.
    for (const [url, status] of [['app://console/%2e%2e/secret.txt', 404], ['app://console/..%2fsecret.txt', 403], ['app://console/assets/..%2f..%2fsecret.txt', 403]] as const) {
      const refused = await recorded.protocolHandler!(new Request(url));
      expect(refused.status, url).toBe(status);
      expect(await refused.text()).not.toContain('secret');
    }
  });

  it('refuses to seal with the basic_text backend', () => {
    const file = path.join(dir, 'session.sealed');
    recorded.backend = 'basic_text';
    const plain = createSecretStore(file, safeStorageCipher);
    expect(plain.persistent).toBe(false);
    plain.save('a token that must not hit the disk');
    expect(fs.existsSync(file)).toBe(false);
    recorded.backend = 'gnome_libsecret';
    expect(createSecretStore(file, safeStorageCipher).persistent).toBe(true);
  });
});
