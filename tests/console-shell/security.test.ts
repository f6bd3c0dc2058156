import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canSeal, createSecretStore, type SecretCipher } from '../../src-main/node/auth/secret-store.ts';
import { consoleCsp, resolveAppPath, resolveAppUrl } from '../../src-main/node/security/app-protocol.ts';
import { externalHostsFor, isAllowedExternalUrl, isAllowedNavigation } from '../../src-main/node/security/navigation.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-shell-security-'));
const root = path.join(dir, 'renderer');
fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html>');
fs.writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer');
fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'link.js'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('app:// request resolution', () => {
  it('serves files under the renderer build and index.html for app routes', () => {
    expect(resolveAppUrl(root, 'app://console/assets/index-abc.js')).toMatchObject({ kind: 'file', contentType: 'text/javascript; charset=utf-8' });
    for (const route of ['app://console/', 'app://console/petitions/12', 'app://console/staff/queues?tab=debate']) {
      const resolved = resolveAppUrl(root, route);
      expect(resolved.kind === 'file' && path.basename(resolved.file), route).toBe('index.html');
    }
    expect(resolveAppUrl(root, 'app://console/assets/missing.js')).toMatchObject({ kind: 'refused', status: 404 });
    // No SPA fallback for API paths: the console reads the API through the main process.
    expect(resolveAppUrl(root, 'app://console/api/petitions')).toMatchObject({ kind: 'refused', status: 404 });
  });

  it('refuses traversal in every spelling, symlinks out of the build, and foreign origins', () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2E%2E/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/assets\\..\\..\\secret.txt',
      '/index.html%00.js',
      '/%E0%A4%A.js',
      '/assets/link.js',
    ];
    for (const attempt of attempts) {
      const resolved = resolveAppPath(root, attempt);
      expect(resolved.kind, attempt).toBe('refused');
    }
    // Through the URL parser too (which normalises plain dot segments away before we see them).
    expect(resolveAppUrl(root, 'app://console/%2e%2e/secret.txt').kind).toBe('refused');
    expect(resolveAppUrl(root, 'app://other/index.html')).toMatchObject({ kind: 'refused', status: 403 });
    expect(resolveAppUrl(root, 'file:///etc/passwd')).toMatchObject({ kind: 'refused', status: 403 });
  });

  it('has a CSP without inline script, eval, plugins, framing or forms', () => {
    const csp = consoleCsp({ imageOrigins: ['https://petitions.example'] });
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'none'");
    expect(csp).toContain("img-src 'self' data: https://petitions.example");
    expect(csp).toContain("connect-src 'self'");
  });
});

describe('navigation and external links', () => {
  const hosts = externalHostsFor('https://petitions.example');

  it('keeps the window on its own origin', () => {
    expect(isAllowedNavigation('app://console/petitions/3', ['app://console'])).toBe(true);
    expect(isAllowedNavigation('https://evil.example/', ['app://console'])).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', ['app://console'])).toBe(false);
    expect(isAllowedNavigation('garbage', ['app://console'])).toBe(false);
  });

  it('opens only https links to the petitions site and Roblox in the system browser', () => {
    expect(isAllowedExternalUrl('https://petitions.example/petitions/4', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://www.roblox.com/users/1/profile', hosts)).toBe(true);
    for (const url of [
      'http://petitions.example/',
      'https://evil.example/',
      'https://petitions.example.evil.example/',
      'https://user:pass@petitions.example/',
      'file:///C:/Windows/System32/calc.exe',
      'smb://attacker/share',
      'javascript:alert(1)',
      'ms-msdt:/id PCWDiagnostic',
      'not a url',
    ]) {
      expect(isAllowedExternalUrl(url, hosts), url).toBe(false);
    }
    // A backend on this machine (development) may be plain http.
    expect(isAllowedExternalUrl('http://localhost:3000/petitions/1', externalHostsFor('http://localhost:3000'))).toBe(true);
    expect(isAllowedExternalUrl('http://localhost:3001/', externalHostsFor('http://localhost:3000'))).toBe(false);
  });
});

/** A real AES-GCM cipher standing in for the OS keyring, which only exists inside Electron. */
function aesCipher(backend: string | null, available = true): SecretCipher {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    selectedBackend: () => backend,
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

describe('the session secret store', () => {
  it('seals the token on disk when the keyring protects it', () => {
    const file = path.join(dir, 'sealed-1', 'session.sealed');
    const store = createSecretStore(file, aesCipher('gnome_libsecret'));
    expect(store.persistent).toBe(true);
    store.save('bearer-token-value-0123456789');
    expect(fs.readFileSync(file).includes(Buffer.from('bearer-token'))).toBe(false);
    expect(store.load()).toBe('bearer-token-value-0123456789');
    store.clear();
    expect(fs.existsSync(file)).toBe(false);
    expect(store.load()).toBeNull();
  });

  it('refuses basic_text and unavailable encryption: memory only, and an old file is removed', () => {
    expect(canSeal(aesCipher('basic_text'))).toBe(false);
    expect(canSeal(aesCipher('gnome_libsecret', false))).toBe(false);
    expect(canSeal(aesCipher(null))).toBe(true); // macOS and Windows report no backend
    const file = path.join(dir, 'sealed-2', 'session.sealed');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'left by an earlier run');
    const store = createSecretStore(file, aesCipher('basic_text'));
    expect(store.persistent).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
    store.save('token-in-memory-only-0123456789');
    expect(store.load()).toBe('token-in-memory-only-0123456789');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('drops a sealed file it cannot open (another keyring) instead of failing', () => {
    const file = path.join(dir, 'sealed-3', 'session.sealed');
    createSecretStore(file, aesCipher('kwallet5')).save('from another key 0123456789');
    const other = createSecretStore(file, aesCipher('kwallet5'));
    expect(other.load()).toBeNull();
    expect(fs.existsSync(file)).toBe(false);
  });
});
