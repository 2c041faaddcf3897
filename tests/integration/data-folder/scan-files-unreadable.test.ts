import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationHandlers } from '../../../src/main/ipc/handlers/migration';
import { schemaHandlers } from '../../../src/main/ipc/handlers/schema';
import { dataFolder } from '../../../src/main/files/data-folder';
import { MigrationStore, newMigrationId } from '../../../src/main/migration/store';
import type { Envelope } from '../../../src/shared/ipc';
import type { MigrationReport, ScanSummary } from '../../../src/shared/ipc/migration';
import type { SchemaScanSummary } from '../../../src/shared/ipc/schema';
import { rawPutAll } from '../../support/copy-oracle';
import { uniqueTableName } from '../../support/dynamo-local';
import { createTable } from '../../support/dynamo-tables';
import { itemsHarness, type ItemsHarness } from '../../support/items-context';

// Pre-flight and Schema keep each scan as files under the data folder: a summary, a checkpoint
// while it is unfinished, a report once done. One that cannot be read is set aside and said.
let h: ItemsHarness;
let endpoint: string;
const table = uniqueTableName('unreadscan');
let seq = 0;

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, { ...migrationHandlers, ...schemaHandlers });
  await createTable(h.client, table, { partitionKey: ['pk', 'S'] });
  await rawPutAll(
    endpoint,
    table,
    Array.from({ length: 30 }, (_, i) => ({ pk: { S: `p${i}` }, at: { N: String(1.7e12 + i) } })),
  );
});
afterAll(() => h.close());

async function ok<T>(answer: Promise<Envelope<T>>): Promise<T> {
  const envelope = await answer;
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value;
}

/** Runs an operation channel to its end; returns what the start answered. */
async function run<T>(channel: string, input: Record<string, unknown>): Promise<T> {
  const requestId = `req_unreadscan_${seq++}`;
  const ended = h.waitFor(requestId);
  const started = await ok(h.call<T>(channel, { ...input, requestId }));
  expect((await ended).last.type).toBe('done');
  return started;
}

async function keptBytes(file: string): Promise<string> {
  const dir = path.dirname(file);
  const [kept, ...more] = (await readdir(dir)).filter((n) =>
    n.startsWith(`${path.basename(file)}.unreadable-`),
  );
  expect(more).toEqual([]);
  return readFile(path.join(dir, kept!), 'utf8');
}

/** The beginning of a file as a crash mid-write leaves it: names the scan's table, then stops. */
const halfOf = (scanId: string, extra = '') =>
  `{"version":1,"scanId":"${scanId}","connectionId":"local","table":"${table}"${extra},"segments":[{"segm`;

describe('pre-flight scan files that cannot be read', () => {
  const scansDir = () => dataFolder.jobs(h.ctx.dataDir, 'preflight');

  it('a cut-off checkpoint: migration:report and its resume answer the sentence, the scan list shows it, other scans report', async () => {
    const done = await run<{ scanId: string }>('migration:scan', { connectionId: 'local', table });
    const stopped = newMigrationId('scan');
    const store = new MigrationStore(h.ctx.dataDir);
    const summary: ScanSummary = {
      scanId: stopped,
      connectionId: 'local',
      table,
      state: 'cancelled',
      startedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      segments: 4,
      itemsScanned: 12,
      tableItemCount: 30,
      consumedReadCapacity: 1,
    };
    await store.saveSummary(summary);
    const checkpoint = path.join(scansDir(), `${stopped}.json`);
    const cut = halfOf(stopped);
    await writeFile(checkpoint, cut);

    const report = await h.call('migration:report', { scanId: stopped });

    expect(report).toMatchObject({ ok: false, error: { code: 'DataFileSetAside' } });
    const sentence = report.ok ? '' : report.error.message;
    expect(sentence).toMatch(
      new RegExp(
        `^The checkpoint of pre-flight scan ${stopped} \\(.*\\) could not be read: it ends in the middle`,
      ),
    );
    expect(sentence).toContain(`it held a pre-flight of ${table}, ${cut.length} bytes`);
    expect(sentence).toContain('start a new scan of the table');
    expect(await keptBytes(checkpoint)).toBe(cut);
    // Said again where the user looks next, after this answer is gone.
    const listed = await ok(h.call<ScanSummary[]>('migration:scans', { connectionId: 'local', table }));
    expect(listed.find((s) => s.scanId === stopped)).toMatchObject({ state: 'failed', error: sentence });
    // The rest works.
    expect((await ok(h.call<MigrationReport>('migration:report', { scanId: done.scanId }))).scanId).toBe(
      done.scanId,
    );

    // A resume of a scan whose checkpoint does not read: the sentence, not InternalError.
    const other = newMigrationId('scan');
    await store.saveSummary({ ...summary, scanId: other });
    await writeFile(path.join(scansDir(), `${other}.json`), 'not json');
    const resumed = await h.call('migration:scan', {
      connectionId: 'local',
      table,
      requestId: `req_unreadscan_${seq++}`,
      resumeScanId: other,
    });
    expect(resumed).toMatchObject({ ok: false, error: { code: 'DataFileSetAside' } });
    expect(resumed.ok ? '' : resumed.error.message).toContain(`The checkpoint of pre-flight scan ${other}`);
  });

  it('a garbage summary is listed as a failed scan with the sentence, kept byte for byte', async () => {
    const broken = newMigrationId('scan');
    const file = path.join(scansDir(), `${broken}.summary.json`);
    const cut = halfOf(broken, ',"state":"run');
    await writeFile(file, cut);

    const listed = await ok(h.call<ScanSummary[]>('migration:scans', { connectionId: 'local', table }));

    const row = listed.find((s) => s.scanId === broken);
    expect(row?.state).toBe('failed');
    expect(row?.error).toMatch(new RegExp(`^The record of pre-flight scan ${broken} .* could not be read`));
    expect(row?.error).toContain(`it held a pre-flight of ${table}`);
    expect(await keptBytes(file)).toBe(cut);
    expect(listed.some((s) => s.state === 'done')).toBe(true);
  });
});

describe('schema read files that cannot be read', () => {
  const schemaDir = () => dataFolder.jobs(h.ctx.dataDir, 'schema');

  it('a garbage checkpoint and summary: schema:report, its resume and schema:scans say so; a finished read still reports', async () => {
    const done = await run<{ scanId: string }>('schema:analyze', {
      connectionId: 'local',
      table,
      mode: 'sample',
    });
    const stopped = newMigrationId('schema');
    const summary: SchemaScanSummary = {
      scanId: stopped,
      connectionId: 'local',
      table,
      mode: 'full',
      state: 'cancelled',
      startedAt: new Date().toISOString(),
      itemsScanned: 9,
    };
    await writeFile(path.join(schemaDir(), `${stopped}.summary.json`), JSON.stringify(summary));
    const checkpoint = path.join(schemaDir(), `${stopped}.json`);
    await writeFile(checkpoint, '{"version":1,"scanId": garbage');

    const report = await h.call('schema:report', { scanId: stopped });

    expect(report).toMatchObject({ ok: false, error: { code: 'DataFileSetAside' } });
    const sentence = report.ok ? '' : report.error.message;
    expect(sentence).toMatch(new RegExp(`^The checkpoint of schema read ${stopped} .* it is not valid JSON`));
    expect(await keptBytes(checkpoint)).toBe('{"version":1,"scanId": garbage');
    const scans = await ok(h.call<SchemaScanSummary[]>('schema:scans', { connectionId: 'local', table }));
    expect(scans.find((s) => s.scanId === stopped)).toMatchObject({ state: 'failed', error: sentence });
    expect(await ok(h.call('schema:report', { scanId: done.scanId }))).toMatchObject({ table });

    const other = newMigrationId('schema');
    await writeFile(
      path.join(schemaDir(), `${other}.summary.json`),
      JSON.stringify({ ...summary, scanId: other }),
    );
    await writeFile(path.join(schemaDir(), `${other}.json`), '');
    const resumed = await h.call('schema:analyze', {
      connectionId: 'local',
      table,
      mode: 'full',
      requestId: `req_unreadscan_${seq++}`,
      resumeScanId: other,
    });
    expect(resumed).toMatchObject({ ok: false, error: { code: 'DataFileSetAside' } });
    expect(resumed.ok ? '' : resumed.error.message).toContain('could not be read: it is empty');

    const broken = newMigrationId('schema');
    const summaryFile = path.join(schemaDir(), `${broken}.summary.json`);
    const cut = `{"scanId":"${broken}","connectionId":"local","table":"${table}","mo`;
    await writeFile(summaryFile, cut);
    const after = await ok(h.call<SchemaScanSummary[]>('schema:scans', { connectionId: 'local', table }));
    expect(after.find((s) => s.scanId === broken)).toMatchObject({
      state: 'failed',
      error: expect.stringContaining(`it held a read of ${table}`) as unknown,
    });
    expect(await keptBytes(summaryFile)).toBe(cut);
  });
});
