/**
 * Where the console keeps its session token between runs. Only sealed storage is used: Electron's
 * safeStorage (Keychain, DPAPI, libsecret/kwallet) behind the `SecretCipher` port. When the system
 * cannot seal (Linux `basic_text`, a hard-coded key, or no keyring at all) the token stays in
 * memory only and the user signs in again on the next start.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface SecretStore {
  /** False when the token lives in memory only (no sealed storage on this system). */
  readonly persistent: boolean;
  load(): string | null;
  save(secret: string): void;
  clear(): void;
}

/** The part of Electron's safeStorage we use (src-main/electron/secrets.ts adapts it). */
export interface SecretCipher {
  isEncryptionAvailable(): boolean;
  /** Linux only: 'basic_text' means a key in the binary, i.e. no protection. */
  selectedBackend(): string | null;
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

/** Backends that do not protect anything; sealing with them is refused. */
export const INSECURE_BACKENDS = new Set(['basic_text', 'unknown']);

export function canSeal(cipher: SecretCipher): boolean {
  if (!cipher.isEncryptionAvailable()) return false;
  const backend = cipher.selectedBackend();
  return backend === null || !INSECURE_BACKENDS.has(backend);
}

export function createMemorySecretStore(): SecretStore {
  let secret: string | null = null;
  return {
    persistent: false,
    load: () => secret,
    save(value) {
      secret = value;
    },
    clear() {
      secret = null;
    },
  };
}

/** A sealed file when the cipher can protect it; otherwise memory only (never plaintext on disk). */
export function createSecretStore(file: string, cipher: SecretCipher): SecretStore {
  if (!canSeal(cipher)) {
    // A file left by an earlier run with a real keyring cannot be trusted or read now.
    fs.rmSync(file, { force: true });
    return createMemorySecretStore();
  }
  return {
    persistent: true,
    load() {
      let sealed: Buffer;
      try {
        sealed = fs.readFileSync(file);
      } catch {
        return null;
      }
      try {
        return cipher.decrypt(sealed);
      } catch {
        // Sealed by another user or keyring: worthless, sign in again.
        fs.rmSync(file, { force: true });
        return null;
      }
    },
    save(value) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, cipher.encrypt(value), { mode: 0o600 });
      fs.renameSync(temp, file);
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
  };
}
