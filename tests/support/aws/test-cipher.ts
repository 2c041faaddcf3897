import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretCipher } from '../../../src/main/aws/secret-store';

/**
 * A real AES-256-GCM cipher standing in for Electron's safeStorage (which needs the Electron
 * binary and an OS keychain). It encrypts for real, so a test reading the file bytes proves
 * that no plain text reached the disk.
 */
export function aesCipher(available = true): SecretCipher & { setAvailable(value: boolean): void } {
  const key = randomBytes(32);
  let isAvailable = available;
  return {
    isAvailable: () => isAvailable,
    setAvailable(value) {
      isAvailable = value;
    },
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
