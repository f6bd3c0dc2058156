/**
 * Web push configuration (docs/notifications.md#web-push): which push services are accepted, the
 * start-up rules for VAPID keys, and development's keys kept in the data folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-server/config.ts';
import { isAllowedPushEndpoint, parsePushServiceOrigins } from '../../src-server/push/push-service-origins.ts';
import { resolveWebPushSettings, VAPID_KEYS_FILE } from '../../src-server/push/web-push-settings.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-push-config-'));
  dirs.push(dir);
  return dir;
}

describe('push services', () => {
  it('accepts endpoints of the listed origins only, with subdomain wildcards', () => {
    const allowed = parsePushServiceOrigins('https://fcm.googleapis.com, https://*.notify.windows.com');
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', allowed)).toBe(true);
    expect(isAllowedPushEndpoint('https://wns2-par02p.notify.windows.com/w/?token=x', allowed)).toBe(true);
    for (const endpoint of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evil.example/?https://fcm.googleapis.com',
      'https://user:pass@fcm.googleapis.com/x',
      'https://notify.windows.com.evil.example/x',
      'https://127.0.0.1/x',
      'not a url',
    ]) {
      expect(isAllowedPushEndpoint(endpoint, allowed), endpoint).toBe(false);
    }
    expect(() => parsePushServiceOrigins('https://push.example/path')).toThrow(/PUSH_SERVICE_ORIGINS/);
  });
});

describe('VAPID keys', () => {
  const pair = webpush.generateVAPIDKeys();

  it('refuses half a pair, production push without keys or subject, and http push services in production', () => {
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production', WEB_PUSH: 'on' })).toThrow(/WEB_PUSH=on in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })).toThrow(/VAPID_SUBJECT is required/);
    expect(() => loadConfig({ NODE_ENV: 'production', PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:9' })).toThrow(/only https/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'not-a-key', VAPID_PRIVATE_KEY: pair.privateKey })).toThrow();
  });

  it('refuses keys that are not a pair', () => {
    const other = webpush.generateVAPIDKeys();
    const config = loadConfig({ NODE_ENV: 'test', VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey });
    expect(() => resolveWebPushSettings(config)).toThrow(/does not belong to the private key/);
  });

  it('is off in production without keys (WEB_PUSH=auto) and in tests unless configured', () => {
    expect(resolveWebPushSettings(loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() }))).toBeNull();
    expect(resolveWebPushSettings(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir() }))).toBeNull();
    const production = loadConfig({ NODE_ENV: 'production', VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'mailto:ops@example.org' });
    expect(resolveWebPushSettings(production)).toMatchObject({ publicKey: pair.publicKey, subject: 'mailto:ops@example.org', source: 'environment' });
    expect(resolveWebPushSettings(loadConfig({ NODE_ENV: 'development', WEB_PUSH: 'off', DATA_DIR: dataDir() }))).toBeNull();
  });

  it('in development, generates a pair once into the data folder (readable by the owner only) and keeps using it', () => {
    const dir = dataDir();
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    const first = resolveWebPushSettings(config);
    const file = path.join(dir, VAPID_KEYS_FILE);
    expect(first?.source).toBe('data folder');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = resolveWebPushSettings(config);
    expect(again?.publicKey).toBe(first?.publicKey);
    expect(again?.privateKey).toBe(first?.privateKey);
    fs.writeFileSync(file, JSON.stringify({ publicKey: pair.publicKey, privateKey: webpush.generateVAPIDKeys().privateKey }));
    expect(() => resolveWebPushSettings(config)).toThrow(/does not belong/);
  });
});
