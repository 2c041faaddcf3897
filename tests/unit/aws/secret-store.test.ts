import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEncryptedSecretStore, createUnavailableSecretStore } from '../../../src/main/aws/secret-store';
import { aesCipher } from '../../support/aws/test-cipher';

const keys = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'FwoGZXIvYXdzEXAMPLESESSIONTOKEN',
};

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'dynotable-secrets-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('secret store without a keychain (browser mode, CLI)', () => {
  it('refuses to save keys with a sentence that points to profiles', async () => {
    const store = createUnavailableSecretStore();
    expect(store.isAvailable()).toBe(false);
    await expect(store.save('c1', keys)).rejects.toMatchObject({
      code: 'EncryptionUnavailable',
      message: expect.stringContaining('Use an AWS profile here instead') as string,
    });
    expect(await store.load('c1')).toBeUndefined();
  });
});

describe('encrypted secret store', () => {
  it('round-trips keys while the file on disk holds only ciphertext, readable by the owner alone', async () => {
    const store = createEncryptedSecretStore(dataDir, aesCipher());
    await store.save('conn-1', keys);
    expect(await store.load('conn-1')).toEqual(keys);

    const files = await readdir(join(dataDir, 'secrets'));
    expect(files).toEqual(['conn-1.bin']);
    const path = join(dataDir, 'secrets', 'conn-1.bin');
    const bytes = await readFile(path);
    for (const secret of [keys.accessKeyId, keys.secretAccessKey, keys.sessionToken]) {
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
      expect(bytes.toString('latin1')).not.toContain(secret.slice(4, 16));
    }
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);

    await store.remove('conn-1');
    expect(await store.load('conn-1')).toBeUndefined();
  });

  it('keeps a named text (an MCP token) as ciphertext apart from the keys, and reads it back', async () => {
    const store = createEncryptedSecretStore(dataDir, aesCipher());
    const token = 'q9V3rN0c2xXk7hL1bM5tY8uWjE4dF6aG2sP0zR1oI3c';
    await store.saveText('mcp-token-conn-1', token);
    expect(await store.loadText('mcp-token-conn-1')).toBe(token);
    expect(await store.load('mcp-token-conn-1')).toBeUndefined();
    const bytes = await readFile(join(dataDir, 'secrets', 'texts', 'mcp-token-conn-1.bin'));
    expect(bytes.toString('latin1')).not.toContain(token.slice(0, 12));
    expect(await store.loadText('mcp-token-other')).toBeUndefined();
    await expect(createUnavailableSecretStore().saveText('mcp-token-conn-1', token)).rejects.toMatchObject({
      code: 'EncryptionUnavailable',
    });
  });

  it('refuses to save when the keychain is unavailable, and writes nothing', async () => {
    const store = createEncryptedSecretStore(dataDir, aesCipher(false));
    await expect(store.save('conn-1', keys)).rejects.toMatchObject({ code: 'EncryptionUnavailable' });
    await expect(readdir(join(dataDir, 'secrets'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports keys it can no longer decrypt as a sentence, not a crash', async () => {
    await createEncryptedSecretStore(dataDir, aesCipher()).save('conn-1', keys);
    // A different key, as after the OS keychain was reset.
    const other = createEncryptedSecretStore(dataDir, aesCipher());
    await expect(other.load('conn-1')).rejects.toMatchObject({
      code: 'StoredKeysUnreadable',
      message: expect.stringContaining('enter the keys again') as string,
    });
  });

  it('never turns a connection id into a path outside its folder', async () => {
    const store = createEncryptedSecretStore(dataDir, aesCipher());
    await expect(store.save('../escape', keys)).rejects.toMatchObject({ code: 'InvalidInput' });
    await expect(store.load('a/b')).rejects.toMatchObject({ code: 'InvalidInput' });
  });
});
