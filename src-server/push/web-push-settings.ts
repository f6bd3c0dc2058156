/**
 * Whether this server sends web push, and with which VAPID keys (RFC 8292), decided once at start-up
 * (docs/notifications.md#web-push):
 * - VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY set: those (checked to be a pair); VAPID_SUBJECT or, outside
 *   production, a placeholder address;
 * - none set, outside production, WEB_PUSH auto or on: a pair generated once and kept in the data
 *   folder (vapid-keys.json, readable by the server's user only), so browsers' subscriptions survive a
 *   restart; tests and NODE_ENV=test never write it: they configure keys or run without push;
 * - otherwise (WEB_PUSH=off, or production without keys): off. config.ts refuses WEB_PUSH=on in
 *   production without keys.
 * Keys must stay the same for the life of the subscriptions: a push service refuses messages signed
 * with another key than the one the browser subscribed with.
 */
import { createECDH } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { ConfigurationError, type ServerConfig } from '../config.ts';

export interface WebPushSettings {
  publicKey: string;
  privateKey: string;
  subject: string;
  serviceOrigins: readonly string[];
  claimMs: number;
  /** Where the keys came from, for the start-up log. */
  source: 'environment' | 'data folder';
}

export const VAPID_KEYS_FILE = 'vapid-keys.json';
const DEVELOPMENT_SUBJECT = 'mailto:petitions-development@example.invalid';

const StoredKeysSchema = z.object({ publicKey: z.string(), privateKey: z.string() });

/** The public key a private key belongs to (base64url, uncompressed point). */
export function vapidPublicKeyOf(privateKey: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}

function checkPair(publicKey: string, privateKey: string, where: string): void {
  let derived: string;
  try {
    derived = vapidPublicKeyOf(privateKey);
  } catch {
    throw new ConfigurationError(`${where}: the VAPID private key is not a P-256 private key.`);
  }
  if (derived !== publicKey) throw new ConfigurationError(`${where}: the VAPID public key does not belong to the private key.`);
}

/** Reads the data folder's keys, or generates and stores them (file mode 0600, written whole or not at all). */
function developmentKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, VAPID_KEYS_FILE);
  if (fs.existsSync(file)) {
    const parsed = StoredKeysSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) throw new ConfigurationError(`${file} is not a VAPID key pair; delete it to generate a new one.`);
    checkPair(parsed.data.publicKey, parsed.data.privateKey, file);
    return parsed.data;
  }
  const keys = webpush.generateVAPIDKeys();
  fs.mkdirSync(dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  return keys;
}

/** The server's web push settings, or null when it sends none. */
export function resolveWebPushSettings(config: Pick<ServerConfig, 'env' | 'dataDir' | 'push' | 'publicBaseUrl'>): WebPushSettings | null {
  const { push } = config;
  if (push.mode === 'off') return null;
  const common = { serviceOrigins: push.serviceOrigins, claimMs: push.claimMs };
  const subject = push.vapid.subject ?? (config.publicBaseUrl?.startsWith('https://') ? config.publicBaseUrl : DEVELOPMENT_SUBJECT);
  if (push.vapid.publicKey && push.vapid.privateKey) {
    checkPair(push.vapid.publicKey, push.vapid.privateKey, 'VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY');
    return { publicKey: push.vapid.publicKey, privateKey: push.vapid.privateKey, subject, ...common, source: 'environment' };
  }
  if (config.env !== 'development') return null;
  return { ...developmentKeys(config.dataDir), subject, ...common, source: 'data folder' };
}
