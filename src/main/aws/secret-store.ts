import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { accessKeysSchema, type AccessKeys } from '../../shared/ipc/connection';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { SecretStore } from '../core/context';
import { isMissingFile, writeFileAtomic } from '../files/atomic-file';
import { dataFolder } from '../files/data-folder';

/** What encrypts at rest: Electron's safeStorage in the desktop app (H4 passes it in). */
export interface SecretCipher {
  isAvailable(): boolean;
  // Sync or async: safeStorage's *Async variants can be passed in as they are.
  encrypt(plain: string): Buffer | Promise<Buffer>;
  decrypt(data: Buffer): string | Promise<string>;
}

const UNAVAILABLE_MESSAGE =
  "Access keys can only be saved in the desktop app, where they are encrypted by the operating system's keychain. Use an AWS profile here instead.";

/** Browser mode and the CLI: there is no keychain, so keys are refused rather than kept in plain text. */
export function createUnavailableSecretStore(): SecretStore {
  return {
    isAvailable: () => false,
    save() {
      return Promise.reject(new AppFailure(ErrorCodes.encryptionUnavailable, UNAVAILABLE_MESSAGE));
    },
    load: () => Promise.resolve(undefined),
    remove: () => Promise.resolve(),
    saveText() {
      return Promise.reject(new AppFailure(ErrorCodes.encryptionUnavailable, UNAVAILABLE_MESSAGE));
    },
    loadText: () => Promise.resolve(undefined),
  };
}

// Connection ids come from the renderer; only plain ids may become file names.
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

function secretPath(dir: string, connectionId: string): string {
  if (!SAFE_ID.test(connectionId)) {
    throw new AppFailure(ErrorCodes.invalidInput, `"${connectionId}" is not a valid connection id.`);
  }
  return join(dir, `${connectionId}.bin`);
}

async function readCipherFile(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    throw error;
  }
}

/**
 * One ciphertext file per connection in dataDir/secrets (mode 0600, written atomically).
 * Only the cipher's output ever reaches the disk; when the cipher is unavailable (Linux
 * without a keyring, for instance) saving is refused instead of falling back to plain text.
 */
export function createEncryptedSecretStore(dataDir: string, cipher: SecretCipher): SecretStore {
  const dir = dataFolder.secrets(dataDir);
  return {
    isAvailable: () => cipher.isAvailable(),
    async save(connectionId, keys) {
      const path = secretPath(dir, connectionId);
      if (!cipher.isAvailable()) throw new AppFailure(ErrorCodes.encryptionUnavailable, UNAVAILABLE_MESSAGE);
      const parsed = accessKeysSchema.parse(keys);
      await writeFileAtomic(path, await cipher.encrypt(JSON.stringify(parsed)), 0o600);
    },
    async load(connectionId): Promise<AccessKeys | undefined> {
      const data = await readCipherFile(secretPath(dir, connectionId));
      if (!data) return undefined;
      if (!cipher.isAvailable()) throw new AppFailure(ErrorCodes.encryptionUnavailable, UNAVAILABLE_MESSAGE);
      try {
        return accessKeysSchema.parse(JSON.parse(await cipher.decrypt(data)));
      } catch {
        throw new AppFailure(
          ErrorCodes.storedKeysUnreadable,
          "The saved access keys of this connection could not be decrypted (the operating system's keychain may have changed). Edit the connection and enter the keys again.",
        );
      }
    },
    async remove(connectionId) {
      await rm(secretPath(dir, connectionId), { force: true });
    },
    // Named texts live apart from the connections' keys, so no name can stand for a connection.
    async saveText(name, text) {
      const path = secretPath(join(dir, 'texts'), name);
      if (!cipher.isAvailable()) throw new AppFailure(ErrorCodes.encryptionUnavailable, UNAVAILABLE_MESSAGE);
      await writeFileAtomic(path, await cipher.encrypt(text), 0o600);
    },
    async loadText(name) {
      const data = await readCipherFile(secretPath(join(dir, 'texts'), name));
      if (!data || !cipher.isAvailable()) return undefined;
      try {
        return await cipher.decrypt(data);
      } catch {
        return undefined;
      }
    },
  };
}
