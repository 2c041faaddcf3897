import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClientFactory } from '../../../src/main/aws/client-factory';
import { createConnectionStore } from '../../../src/main/aws/connection-store';
import { createEncryptedSecretStore, createUnavailableSecretStore } from '../../../src/main/aws/secret-store';
import type { CoreContext, SecretStore } from '../../../src/main/core/context';
import { createDispatcher, type HandlerTable } from '../../../src/main/ipc/dispatcher';
import { connectionHandlers } from '../../../src/main/ipc/handlers/connections';
import { aesCipher } from '../../support/aws/test-cipher';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'dynotable-handlers-'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
});

/** The connection channels through the real dispatcher (parse → handler → envelope). */
function dispatcherWith(secrets: SecretStore) {
  const connections = createConnectionStore(dataDir, secrets);
  const playground = { status: () => ({ state: 'stopped' as const }) };
  const clients = createClientFactory({ connections, secrets, playground });
  const signIn = vi.fn(() => Promise.resolve());
  // Only what the connection handlers touch; the rest of the core belongs to other modules.
  const ctx = {
    mode: 'browser',
    secrets,
    connections,
    clients,
    playground,
    signIn,
  } as unknown as CoreContext;
  return { dispatch: createDispatcher(connectionHandlers as HandlerTable, ctx), signIn };
}

const draft = {
  label: 'Staging',
  color: '#bf8700',
  kind: 'keys',
  region: 'eu-west-1',
  readOnly: false,
  isProduction: false,
};
const accessKeys = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

describe('connections:* channels', () => {
  it('refuses access keys in browser mode with a sentence, and saves nothing', async () => {
    const { dispatch } = dispatcherWith(createUnavailableSecretStore());
    const result = await dispatch('connections:save', { connection: draft, accessKeys });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'EncryptionUnavailable',
        message:
          "Access keys can only be saved in the desktop app, where they are encrypted by the operating system's keychain. Use an AWS profile here instead.",
        retryable: false,
      },
    });
    expect(await dispatch('connections:list', {})).toMatchObject({ ok: true, value: [{ id: 'playground' }] });
  });

  it('saves keys encrypted and never returns them, only hasStoredKeys', async () => {
    const { dispatch } = dispatcherWith(createEncryptedSecretStore(dataDir, aesCipher()));
    const saved = await dispatch('connections:save', { connection: draft, accessKeys });
    expect(saved).toMatchObject({ ok: true, value: { kind: 'keys', hasStoredKeys: true } });
    const listed = JSON.stringify(await dispatch('connections:list', {}));
    expect(listed).not.toContain(accessKeys.secretAccessKey);
    expect(listed).not.toContain(accessKeys.accessKeyId);
    expect(await readFile(join(dataDir, 'connections.json'), 'utf8')).not.toContain(accessKeys.accessKeyId);
  });

  it('validates input at the boundary and refuses to delete the playground', async () => {
    const { dispatch } = dispatcherWith(createUnavailableSecretStore());
    const badRegion = await dispatch('connections:save', {
      connection: { ...draft, kind: 'profile', profile: 'x', region: 'Europe' },
    });
    expect(badRegion).toMatchObject({
      ok: false,
      error: { code: 'InvalidInput', message: expect.stringContaining('connection.region') as string },
    });
    expect(await dispatch('connections:delete', { connectionId: 'playground' })).toMatchObject({
      ok: false,
      error: { code: 'Forbidden', message: 'The local playground is built in and cannot be deleted.' },
    });
    expect(await dispatch('connections:delete', { connectionId: 'never-existed' })).toEqual({
      ok: true,
      value: { deleted: false },
    });
  });

  it('starts sign-in only for profile connections', async () => {
    const { dispatch, signIn } = dispatcherWith(createUnavailableSecretStore());
    expect(
      await dispatch('connections:signIn', { connectionId: 'playground', requestId: 'sign-in-0001' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'InvalidInput' },
    });
    const saved = await dispatch('connections:save', {
      connection: { ...draft, kind: 'profile', profile: 'dev' },
    });
    const id = saved.ok ? (saved.value as { id: string }).id : '';
    expect(await dispatch('connections:signIn', { connectionId: id, requestId: 'sign-in-0002' })).toEqual({
      ok: true,
      value: { started: true },
    });
    expect(signIn).toHaveBeenCalledWith(id, 'sign-in-0002');
  });

  it('lists profiles and tests the playground with a sentence when it is not running', async () => {
    vi.stubEnv('AWS_CONFIG_FILE', join(dataDir, 'none'));
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dataDir, 'none'));
    const { dispatch } = dispatcherWith(createUnavailableSecretStore());
    expect(await dispatch('connections:profiles', {})).toEqual({ ok: true, value: [] });
    expect(await dispatch('connections:test', { connectionId: 'playground' })).toEqual({
      ok: true,
      value: {
        ok: false,
        errorCode: 'ConnectionFailed',
        message: 'The local playground is not running (it is stopped). Start it from the connection picker.',
      },
    });
  });
});
