import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ safeStorage: {} }));
vi.mock('../../../src/main/aws/secret-store', () => ({ createEncryptedSecretStore: vi.fn() }));

const { isSafeStorageUsable } = await import('../../../src/main/security/safe-storage-secret-store');

type Backend = ReturnType<Electron.SafeStorage['getSelectedStorageBackend']>;
const storage = (available: boolean, backend: Backend) => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: () => backend,
});

describe('isSafeStorageUsable', () => {
  it('refuses when Electron reports no encryption', () => {
    expect(isSafeStorageUsable(storage(false, 'gnome_libsecret'), 'linux')).toBe(false);
    expect(isSafeStorageUsable(storage(false, 'unknown'), 'darwin')).toBe(false);
  });

  it("treats Linux's basic_text fallback (a hard-coded key) as no encryption", () => {
    expect(isSafeStorageUsable(storage(true, 'basic_text'), 'linux')).toBe(false);
  });

  it('accepts a real keyring on Linux and the OS keychain elsewhere', () => {
    expect(isSafeStorageUsable(storage(true, 'gnome_libsecret'), 'linux')).toBe(true);
    expect(isSafeStorageUsable(storage(true, 'kwallet6'), 'linux')).toBe(true);
    expect(isSafeStorageUsable(storage(true, 'unknown'), 'darwin')).toBe(true);
    expect(isSafeStorageUsable(storage(true, 'unknown'), 'win32')).toBe(true);
  });
});
