import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConnectionStore } from '../../../src/main/aws/connection-store';
import { createEncryptedSecretStore, createUnavailableSecretStore } from '../../../src/main/aws/secret-store';
import type { ConnectionDraft } from '../../../src/shared/ipc/connection';
import { aesCipher } from '../../support/aws/test-cipher';

const keys = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

const prodProfile: ConnectionDraft = {
  label: 'Production',
  color: '#d1242f',
  kind: 'profile',
  profile: 'prod-admin',
  region: 'eu-west-1',
  readOnly: true,
  isProduction: true,
};

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'dynotable-connections-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('connection store', () => {
  it('lists the built-in playground first, even before anything is saved, and refuses to delete it', async () => {
    const store = createConnectionStore(dataDir, createUnavailableSecretStore());
    const [first, ...rest] = await store.list();
    expect(first).toMatchObject({
      id: 'playground',
      kind: 'playground',
      label: 'Local playground',
      region: 'local',
    });
    expect(rest).toEqual([]);
    await expect(store.remove('playground')).rejects.toMatchObject({ code: 'Forbidden' });
  });

  it('assigns an id to a new connection and round-trips it through connections.json', async () => {
    const store = createConnectionStore(dataDir, createUnavailableSecretStore());
    const saved = await store.save(prodProfile);
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(saved).toMatchObject(prodProfile);

    // A fresh store (the app restarted) reads the same thing back.
    const reopened = createConnectionStore(dataDir, createUnavailableSecretStore());
    expect((await reopened.list()).map((c) => c.id)).toEqual(['playground', saved.id]);
    expect(await reopened.get(saved.id)).toEqual(saved);

    const edited = await reopened.save({
      ...prodProfile,
      id: saved.id,
      label: 'Prod (EU)',
      endpoint: undefined,
    });
    expect((await reopened.get(saved.id)).label).toBe('Prod (EU)');
    expect(edited.id).toBe(saved.id);

    expect(await reopened.remove(saved.id)).toBe(true);
    expect(await reopened.remove(saved.id)).toBe(false);
    expect((await reopened.list()).map((c) => c.id)).toEqual(['playground']);
  });

  it("keeps the playground's kind and endpoint but lets the user mark it read-only", async () => {
    const store = createConnectionStore(dataDir, createUnavailableSecretStore());
    await store.save({ ...prodProfile, id: 'playground', kind: 'profile', label: 'Sandbox', readOnly: true });
    const playground = await store.get('playground');
    expect(playground).toMatchObject({
      id: 'playground',
      kind: 'playground',
      region: 'local',
      label: 'Sandbox',
      readOnly: true,
    });
    expect(playground.profile).toBeUndefined();
    await expect(store.save({ ...prodProfile, kind: 'playground' })).rejects.toMatchObject({
      code: 'InvalidInput',
    });
  });

  it('sets a corrupt connections.json aside with a sentence naming what it held, and goes on without it', async () => {
    const path = join(dataDir, 'connections.json');
    const broken = '{"version":1,"connections":[{"id":"x","label":"Prod EU","color":"#f00","kind":"pro';
    await writeFile(path, broken);
    const store = createConnectionStore(dataDir, createUnavailableSecretStore());
    const keptFiles = async () =>
      (await readdir(dataDir)).filter((n) => n.startsWith('connections.json.unreadable-'));

    await expect(store.list()).rejects.toMatchObject({
      code: 'DataFileSetAside',
      message: expect.stringMatching(
        /^Your saved connections \(.*\) could not be read: it ends in the middle.*it held the connections Prod EU, \d+ bytes\. The local playground still works/,
      ) as string,
    });
    const [kept] = await keptFiles();
    expect(await readFile(join(dataDir, kept!), 'utf8')).toBe(broken);
    // From then on: the playground, and a save that lands beside the kept file.
    expect((await store.list()).map((c) => c.id)).toEqual(['playground']);
    const saved = await store.save(prodProfile);
    expect((await store.list()).map((c) => c.id)).toEqual(['playground', saved.id]);
    expect(await readFile(join(dataDir, kept!), 'utf8')).toBe(broken);

    await writeFile(path, JSON.stringify({ version: 1, connections: [{ id: 'x', label: 'X' }] }));
    await expect(store.get('playground')).rejects.toMatchObject({
      code: 'DataFileSetAside',
      message: expect.stringMatching(/not in the form DynoTable writes \(connections\[0\]\.\w+/) as string,
    });
    expect(await keptFiles()).toHaveLength(2);
  });

  it('refuses access keys where they cannot be encrypted, without saving the connection', async () => {
    const store = createConnectionStore(dataDir, createUnavailableSecretStore());
    const draft: ConnectionDraft = { ...prodProfile, kind: 'keys', profile: undefined };
    await expect(store.save(draft, keys)).rejects.toMatchObject({
      code: 'EncryptionUnavailable',
      message: expect.stringContaining('desktop app') as string,
    });
    await expect(store.save(draft)).rejects.toMatchObject({ code: 'InvalidInput' });
    expect((await store.list()).map((c) => c.id)).toEqual(['playground']);
  });

  it('stores keys encrypted beside the connection, reports hasStoredKeys, and deletes them with it', async () => {
    const secrets = createEncryptedSecretStore(dataDir, aesCipher());
    const store = createConnectionStore(dataDir, secrets);
    const saved = await store.save({ ...prodProfile, kind: 'keys', profile: 'ignored' }, keys);
    expect(saved).toMatchObject({ kind: 'keys', hasStoredKeys: true });
    expect(saved.profile).toBeUndefined();

    const onDisk = await readFile(join(dataDir, 'connections.json'), 'utf8');
    expect(onDisk).not.toContain(keys.secretAccessKey);
    expect(onDisk).not.toContain(keys.accessKeyId);
    expect(onDisk).not.toContain('hasStoredKeys');

    // Editing without keys keeps the stored ones.
    await store.save({ ...prodProfile, kind: 'keys', id: saved.id, label: 'Renamed' });
    expect(await secrets.load(saved.id)).toEqual(keys);
    // Switching to a profile forgets them.
    await store.save({ ...prodProfile, id: saved.id });
    expect(await secrets.load(saved.id)).toBeUndefined();

    const again = await store.save({ ...prodProfile, kind: 'keys', profile: undefined }, keys);
    await store.remove(again.id);
    expect(await secrets.load(again.id)).toBeUndefined();
  });

  it('serialises concurrent saves so none is lost', async () => {
    const store = createConnectionStore(dataDir, createUnavailableSecretStore());
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.save({ ...prodProfile, label: `c${i}` })));
    expect((await store.list()).length).toBe(9);
  });
});
