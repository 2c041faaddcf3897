import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FileChooser, type FileDialog } from '../../src/main/files/file-chooser';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import type { MigrationReport, OrmModel, Verdict } from '../../src/shared/ipc/migration';
import { runCli } from '../support/cli-run';
import { uniqueTableName } from '../support/dynamo-local';
import { itemsHarness, type ItemsHarness } from '../support/items-context';
import { createOrdersTable, pointDynamoose, writeOrders, writeTraps } from '../support/migration-fixture';

// Issue 15 item 4 in the app: the model file the Schema view saves, given to the Pre-flight view
// through the channel, turns the verdict exactly as `scan-migration --model FILE` does.
const endpoint = inject('dynamoEndpoint');
const table = uniqueTableName('migmodel');
let h: ItemsHarness;
let dir: string;
let modelFile: string;
/** What the system's open dialog answers: the file a person picked (no Electron here). */
let picked: string | undefined;

const dialog: FileDialog = {
  open: () => Promise.resolve(picked),
  save: () => Promise.resolve(undefined),
  openFolder: () => Promise.resolve(undefined),
};
const cli = (args: string[]) =>
  runCli([...args, '--table', table, '--endpoint', endpoint], { AWS_REGION: 'us-east-1' });
const ref = { connectionId: 'local', table };

beforeAll(async () => {
  h = itemsHarness(endpoint, { ...migrationHandlers, ...transferHandlers });
  (h.ctx as { files: FileChooser }).files = new FileChooser(dialog);
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-migmodel-'));
  pointDynamoose(endpoint);
  await createOrdersTable(h.client, table);
  await writeOrders(table, 30);
  await writeTraps(h.client, table);
  // The model as the Schema view's "dynotable-orm model" saves it (the same generator as the CLI).
  modelFile = path.join(dir, `${table}.model.ts`);
  const generated = await cli(['schema', '--full', '--format', 'orm', '--out', modelFile, '--quiet']);
  expect(generated.code).toBe(0);
}, 120_000);
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

async function ok<T>(channel: string, payload: unknown): Promise<T> {
  const envelope = await h.call<T>(channel, payload);
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
  return envelope.value;
}

async function scanVerdict(): Promise<{ scanId: string; verdict: Verdict }> {
  const requestId = `req_migmodel_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  const done = h.waitFor(requestId);
  const { scanId } = await ok<{ scanId: string }>('migration:scan', { ...ref, requestId, segments: 2 });
  expect((await done).last.type).toBe('done');
  return { scanId, verdict: (await ok<MigrationReport>('migration:report', { scanId })).verdict };
}

async function cliVerdict(extra: string[]): Promise<Verdict> {
  const run = await cli(['scan-migration', '--quiet', ...extra]);
  return (JSON.parse(run.stdout) as MigrationReport).verdict;
}

describe('a dynotable-orm model file in the Pre-flight view', () => {
  it('changes the verdict as --model does in the CLI, on the same dynamoose-written table', async () => {
    const without = await scanVerdict();
    expect(without.verdict).toEqual(await cliVerdict([]));

    // Desktop: the system's dialog picks the file; the page gets a handle, main reads the file.
    picked = modelFile;
    const choice = await ok<{ fileId: string; name: string }>('files:choose', { purpose: 'model' });
    expect(choice.name).toBe(path.basename(modelFile));
    const { model } = await ok<{ model: OrmModel }>('migration:useModel', {
      ...ref,
      source: { fileId: choice.fileId },
    });
    // What the model says, tallied from the file's own lines rather than the parser.
    const text = await readFile(modelFile, 'utf8');
    const dateLines = text.split('\n').filter((l) => /^\s+\w+: z\.date\(\)/.test(l));
    expect(model.dateStorage.map((d) => d.path).sort()).toEqual(
      dateLines.map((l) => l.trim().split(':')[0]).sort(),
    );
    expect(model.dateStorage.length).toBeGreaterThan(0);
    expect(model.entities.map((e) => e.name)).toEqual(
      [...text.matchAll(/model\(\n\s+'([^']+)'/g)].map((m) => m[1]),
    );

    const withModel = await scanVerdict();
    const fromCli = await cliVerdict(['--model', modelFile]);
    expect(withModel.verdict).toEqual(fromCli);
    expect(withModel.verdict).not.toEqual(without.verdict);
    // Most of the Order model's Date attributes hold ISO strings, so it says defaultDateStorage
    // 'iso'; updatedAt holds epoch ms (dynamoose's timestamps): the model contradicts the data there.
    expect(text).toContain("{defaultDateStorage: 'iso'}");
    expect(withModel.verdict.settings).toContain(
      'updatedAt is acknowledged as ISO strings but holds epoch ms: correct the model or the acknowledgement',
    );
    // The earlier scan's report is restated too: a model given after a scan counts without rescanning.
    expect((await ok<MigrationReport>('migration:report', { scanId: without.scanId })).verdict).toEqual(
      fromCli,
    );

    // Browser mode sends the text the page read. The team drops the ISO setting from the Order
    // model: the ORM's epoch ms then applies to gsiDay, which holds ISO strings.
    const epochText = text.replace(",\n  {defaultDateStorage: 'iso'}\n);", '\n);');
    expect(epochText).not.toBe(text);
    const epochFile = path.join(dir, 'Orders-epoch.model.ts');
    await writeFile(epochFile, epochText);
    const sent = await ok<{ model: OrmModel }>('migration:useModel', {
      ...ref,
      source: { name: 'Orders-epoch.model.ts', text: epochText },
    });
    expect(sent.model.fileName).toBe('Orders-epoch.model.ts');
    expect(sent.model.entities.find((e) => e.name === 'Order')?.dateStorage).toBe('millis');
    const epochVerdict = (await ok<MigrationReport>('migration:report', { scanId: withModel.scanId }))
      .verdict;
    expect(epochVerdict).toEqual(await cliVerdict(['--model', epochFile]));
    expect(epochVerdict.settings).toContain(
      'gsiDay is acknowledged as epoch ms but holds ISO strings: correct the model or the acknowledgement',
    );

    // A file that is not a model gets a sentence, and the model in use stays.
    const notAModel = path.join(dir, 'notes.ts');
    await writeFile(notAModel, 'export const x = 1;\n');
    picked = notAModel;
    const bad = await ok<{ fileId: string }>('files:choose', { purpose: 'model' });
    const refused = await h.call('migration:useModel', { ...ref, source: { fileId: bad.fileId } });
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error.message).toContain('notes.ts has no dynotable-orm model(...) in it');
    expect((await ok<{ model: OrmModel | null }>('migration:model', ref)).model).toEqual(sent.model);
    // A handle chosen for an import is not a model's.
    const importChoice = await ok<{ fileId: string }>('files:choose', { purpose: 'import', format: 'jsonl' });
    const wrongPurpose = await h.call('migration:useModel', {
      ...ref,
      source: { fileId: importChoice.fileId },
    });
    expect(wrongPurpose.ok ? 'ok' : wrongPurpose.error.code).toBe('FileNotFound');

    // Removed: the verdict is the one without a model again, as the CLI without --model.
    expect(await ok('migration:removeModel', ref)).toEqual({ model: null });
    expect((await ok<MigrationReport>('migration:report', { scanId: withModel.scanId })).verdict).toEqual(
      without.verdict,
    );
  }, 240_000);
});
