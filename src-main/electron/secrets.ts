/** Electron's safeStorage as the SecretStore's cipher (refusing Linux's basic_text backend). */
import { safeStorage } from 'electron';
import type { SecretCipher } from '../node/auth/secret-store.ts';

export const safeStorageCipher: SecretCipher = {
  isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
  selectedBackend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (sealed) => safeStorage.decryptString(sealed),
};
