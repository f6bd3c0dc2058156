/**
 * Seals the Roblox tokens a session holds (`sessions.tokens`) with AES-256-GCM. The session's id
 * hash is the additional authenticated data, so a sealed blob copied onto another session row
 * does not open there.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What a session keeps of the provider's token response. Never leaves the server. */
export interface StoredTokens {
  access_token: string;
  /** Epoch milliseconds, on the application clock (context.now()). */
  access_expires_at: number;
  /** Single use at Roblox: every refresh returns a new one, which replaces this. */
  refresh_token: string | null;
}

const FORMAT = 'v1';
const IV_BYTES = 12;

export interface TokenVault {
  seal(tokens: StoredTokens, sessionIdHash: string): string;
  /** Null when the blob was sealed with another key or for another session, or is damaged. */
  open(sealed: string, sessionIdHash: string): StoredTokens | null;
}

/**
 * SESSION_SECRET is stretched with HKDF so any long random string works as a secret. Without one
 * (development only: start-up refuses production without it) a random key lives as long as the
 * process, and sessions from before a restart simply have to sign in again.
 */
export function createTokenVault(sessionSecret: string | undefined): TokenVault {
  const key = sessionSecret
    ? Buffer.from(hkdfSync('sha256', sessionSecret, 'petitions', 'session tokens v1', 32))
    : randomBytes(32);

  return {
    seal(tokens, sessionIdHash) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(sessionIdHash));
      const body = Buffer.concat([cipher.update(JSON.stringify(tokens), 'utf8'), cipher.final()]);
      return [FORMAT, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },

    open(sealed, sessionIdHash) {
      const [format, iv, tag, body] = sealed.split('.');
      if (format !== FORMAT || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(sessionIdHash));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
        const value = JSON.parse(text) as Partial<StoredTokens>;
        if (typeof value.access_token !== 'string' || typeof value.access_expires_at !== 'number') return null;
        return {
          access_token: value.access_token,
          access_expires_at: value.access_expires_at,
          refresh_token: typeof value.refresh_token === 'string' ? value.refresh_token : null,
        };
      } catch {
        return null;
      }
    },
  };
}
