import { safeStorage } from 'electron';
import { createEncryptedSecretStore } from '../aws/secret-store';
import type { SecretStore } from '../core/context';

/**
 * Is OS-backed encryption really there? On Linux without a keyring (no gnome-keyring/kwallet,
 * e.g. a bare X session or a container) Chromium falls back to 'basic_text', which encrypts
 * with a hard-coded key: that is plain text with extra steps, so we treat it as unavailable.
 */
export function isSafeStorageUsable(
  storage: Pick<Electron.SafeStorage, 'isEncryptionAvailable' | 'getSelectedStorageBackend'>,
  platform: NodeJS.Platform,
): boolean {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the sync check matches the sync cipher below
  if (!storage.isEncryptionAvailable()) return false;
  if (platform === 'linux' && storage.getSelectedStorageBackend() === 'basic_text') return false;
  return true;
}

/**
 * Access keys at rest, encrypted by the OS keychain through Electron's safeStorage.
 *
 * Electron 45 deprecates the synchronous safeStorage calls in favour of *Async ones, but the
 * SecretCipher contract of aws/secret-store.ts is synchronous today. The sync calls still work,
 * and Electron documents that decryptStringAsync reads what encryptString wrote, so switching
 * later needs no migration of saved keys.
 */
export function createSafeStorageSecretStore(dataDir: string): SecretStore {
  /* eslint-disable @typescript-eslint/no-deprecated -- see above: move to *Async with SecretCipher */
  return createEncryptedSecretStore(dataDir, {
    isAvailable: () => isSafeStorageUsable(safeStorage, process.platform),
    encrypt: (plain: string) => safeStorage.encryptString(plain),
    decrypt: (encrypted: Buffer) => safeStorage.decryptString(encrypted),
  });
  /* eslint-enable @typescript-eslint/no-deprecated */
}
