import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentSettingsStore } from '../../../src/main/agent/settings-store';
import { loadAthenaSettings, saveScanLimits, scanLimitOf } from '../../../src/main/sql/sql-settings';
import { AcknowledgementStore } from '../../../src/main/migration/acknowledgements';
import { OrmModelStore } from '../../../src/main/migration/model-store';
import { loadViews } from '../../../src/main/sql/files/view-store';
import { defaultLimits } from '../../../src/main/sql/scan-limit';
import { defaultAgentSettings } from '../../../src/shared/ipc/agent';

// The settings files of the data folder: one that cannot be read is set aside (kept as it was),
// the call that found it says so in a sentence, and from the next call on the app works from the
// defaults, whose saves land in a new file beside the kept one.
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dataFolder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dynotable-settings-'));
  folders.push(dir);
  return dir;
};

async function plant(file: string, bytes: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
}

/** The one file kept beside `file`, checked to hold exactly `bytes`. */
async function expectKept(file: string, bytes: string): Promise<void> {
  const kept = (await readdir(path.dirname(file))).filter((n) =>
    n.startsWith(`${path.basename(file)}.unreadable-`),
  );
  expect(kept).toHaveLength(1);
  expect(await readFile(path.join(path.dirname(file), kept[0]!), 'utf8')).toBe(bytes);
}

async function sentenceOf(work: Promise<unknown>): Promise<string> {
  const error = (await work.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: string; message?: string } | undefined;
  expect(error?.code).toBe('DataFileSetAside');
  return error?.message ?? '';
}

describe('settings files that cannot be read', () => {
  it('agent-settings.json: said once, then the defaults; a save keeps the set-aside file', async () => {
    const dataDir = dataFolder();
    const file = path.join(dataDir, 'agent-settings.json');
    const cut = '{"conn-1":{"modelId":"anthropic.claude","bedrockRegion":"us-ea';
    await plant(file, cut);
    const store = new AgentSettingsStore(dataDir);

    const sentence = await sentenceOf(store.get('conn-1'));

    expect(sentence).toMatch(
      /^Your assistant settings \(.*agent-settings\.json\) could not be read: it ends in the middle/,
    );
    expect(sentence).toContain('it held settings of 1 connection');
    expect(sentence).toMatch(/The assistant uses its default settings until you save new ones\.$/);
    await expectKept(file, cut);
    expect(await store.get('conn-1')).toEqual(defaultAgentSettings);
    await store.save('conn-1', defaultAgentSettings);
    expect(await store.get('conn-1')).toEqual(defaultAgentSettings);
    await expectKept(file, cut);
  });

  it('athena-settings.json (the scan limits): said once, then the default limit holds; a new limit saves', async () => {
    const dataDir = dataFolder();
    const file = path.join(dataDir, 'athena-settings.json');
    await plant(file, 'garbage');

    const sentence = await sentenceOf(scanLimitOf(dataDir, 'conn-1'));

    expect(sentence).toContain('Your scan limits and Athena settings');
    expect(sentence).toContain('it is not valid JSON');
    expect(sentence).toContain('it held 7 bytes');
    await expectKept(file, 'garbage');
    expect((await loadAthenaSettings(dataDir, 'conn-1')).isDefault).toBe(true);
    const limits = defaultLimits(8 * 1024 ** 3);
    expect((await saveScanLimits(dataDir, 'conn-1', limits)).limits).toEqual(limits);
    await expectKept(file, 'garbage');
  });

  it('views.json: said once with the views it named, then none', async () => {
    const dataDir = dataFolder();
    const file = path.join(dataDir, 'sql', 'conn-1', 'views.json');
    const cut = '{"version":1,"views":[{"name":"Orders","table":"Shop","conditions":[';
    await plant(file, cut);

    const sentence = await sentenceOf(loadViews(dataDir, 'conn-1'));
    expect(sentence).toContain('Your entity views');
    expect(sentence).toContain('it held the views Orders');
    await expectKept(file, cut);
    expect(await loadViews(dataDir, 'conn-1')).toEqual([]);
  });

  it("a table's kept model file: said once, then the pre-flight goes on without one", async () => {
    const dataDir = dataFolder();
    const store = new OrmModelStore(dataDir);
    const file = path.join(dataDir, 'migration', 'models', 'conn-1', 'Orders.model.json');
    const cut = '{"fileName":"orders.model.ts","at":"2026-12-01T10:00:00.000Z","text":"model(';
    await plant(file, cut);

    const sentence = await sentenceOf(store.get('conn-1', 'Orders'));

    expect(sentence).toContain('The model file kept for Orders');
    expect(sentence).toContain('it held a copy of orders.model.ts');
    await expectKept(file, cut);
    expect(await store.get('conn-1', 'Orders')).toBeNull();
  });

  it("a table's acknowledgements: said once, then none; a new acknowledgement saves", async () => {
    const dataDir = dataFolder();
    const store = new AcknowledgementStore(dataDir, () => 'ana');
    const file = store.file('conn-1', 'Orders');
    const wrong = JSON.stringify({
      table: 'Orders',
      dateStorage: [{ path: 'createdAt', storage: 'sometimes' }],
    });
    await plant(file, wrong);

    const sentence = await sentenceOf(store.list('conn-1', 'Orders'));

    expect(sentence).toContain('The acknowledged settings of Orders');
    expect(sentence).toContain('it held acknowledgements of createdAt');
    await expectKept(file, wrong);
    expect((await store.list('conn-1', 'Orders')).acknowledgements).toEqual([]);
    const after = await store.acknowledge('conn-1', 'Orders', {
      path: 'createdAt',
      storage: 'iso',
      reason: 'ISO text',
    });
    expect(after.acknowledgements.map((a) => a.path)).toEqual(['createdAt']);
    await expectKept(file, wrong);
  });
});
