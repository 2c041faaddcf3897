import {
  BatchWriteItemCommand,
  CreateTableCommand,
  type DynamoDBClient,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataFolder } from '../../src/main/files/data-folder';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { operationHandlers } from '../../src/main/ipc/handlers/operations';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type {
  ImportReport,
  TableExportReport,
  TableExportSummary,
  TransferFormat,
} from '../../src/shared/ipc/transfer';
import { uniqueTableName } from '../support/dynamo-local';
import { itemsHarness, type ItemsHarness } from '../support/items-context';
import { canonical, rawScanItems } from '../support/raw-dynamo';

const ITEMS = 400;
/** About 6 KB each: 2.4 MB in all, so a Scan of the table takes three 1 MB pages. */
const PADDING = 'x'.repeat(6000);

let h: ItemsHarness;
let endpoint: string;
let table: string;
let dir: string;
let counter = 0;
const id = (prefix: string) => `${prefix}_${++counter}_${Date.now()}`;

function itemNumber(n: number): Item {
  return {
    pk: { S: `ITEM#${String(n).padStart(4, '0')}` },
    n: { N: String(n) },
    // Computed: a literal `__proto__:` would set the prototype, not an attribute.
    ['__proto__']: { S: `proto ${n}` },
    constructor: { N: `${n}.50` },
    'a.b': { S: 'dotted' },
    '#x': { BOOL: n % 2 === 0 },
    '[0]': { L: [{ S: 'first' }, { N: '1' }] },
    tags: { SS: ['b', 'a'] },
    blob: { B: Buffer.from([n % 256, 0, 255]).toString('base64') },
    padding: { S: PADDING },
    // A sparse index key: every third item is in the index.
    ...(n % 3 === 0 ? { status: { S: n % 2 === 0 ? 'open' : 'closed' } } : {}),
  };
}

async function createEmpty(client: DynamoDBClient): Promise<string> {
  const name = uniqueTableName('texport');
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'status', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byStatus',
          KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: name });
  return name;
}

async function createSource(client: DynamoDBClient): Promise<string> {
  const name = await createEmpty(client);
  for (let start = 0; start < ITEMS; start += 25) {
    const batch = Array.from({ length: Math.min(25, ITEMS - start) }, (_, i) => ({
      PutRequest: { Item: toSdkItem(itemNumber(start + i)) },
    }));
    await client.send(new BatchWriteItemCommand({ RequestItems: { [name]: batch } }));
  }
  return name;
}

/** Starts an operation and answers its requestId and its ending. */
async function begin(channel: string, payload: Record<string, unknown>) {
  const requestId = id('texport');
  const ended = h.waitFor(requestId);
  const started = await h.call(channel, { ...payload, requestId });
  if (!started.ok) throw new Error(started.error.message);
  return { requestId, exportId: (started.value as { exportId: string }).exportId, ended };
}

async function finished(channel: string, payload: Record<string, unknown>): Promise<TableExportReport> {
  const { ended } = await begin(channel, payload);
  const { last } = await ended;
  if (last.type !== 'done') throw new Error(`ended with ${last.type}: ${JSON.stringify(last)}`);
  return last.value as TableExportReport;
}

/** The items a file holds, as canonical text, whatever the format. */
function itemsInFile(file: string, format: 'jsonl' | 'dynamodb-json'): string[] {
  const text = readFileSync(file, 'utf8');
  const items =
    format === 'jsonl'
      ? text
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => (JSON.parse(line) as { Item: unknown }).Item)
      : (JSON.parse(text) as { Items: unknown[] }).Items;
  return items.map((item) => canonical(item)).sort();
}

async function storedItems(name: string, index?: string): Promise<string[]> {
  return (await rawScanItems(endpoint, name, index)).map((item) => canonical(item)).sort();
}

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, { ...transferHandlers, ...operationHandlers });
  dir = mkdtempSync(path.join(tmpdir(), 'dynotable-table-export-'));
  table = await createSource(h.client);
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a whole-table export', () => {
  it.each(['jsonl', 'dynamodb-json'] as const)(
    'writes every stored item, as DynamoDB holds it, as %s',
    async (format) => {
      const file = path.join(dir, `whole.${format}`);
      const report = await finished('transfer:exportTable', {
        connectionId: 'local',
        table,
        format,
        path: file,
      });
      expect(report).toMatchObject({ path: file, items: ITEMS });
      expect(report.consumedCapacity).toBeGreaterThan(0);
      expect(existsSync(`${file}.part`)).toBe(false);
      // The oracle: DynamoDB Local's own wire JSON of a raw Scan, hostile names and all.
      expect(itemsInFile(file, format)).toEqual(await storedItems(table));
      // A completed export leaves nothing to resume.
      const left = await h.call('transfer:tableExports', { connectionId: 'local', table });
      expect(left).toEqual({ ok: true, value: [] });
    },
  );

  it('writes CSV that imports back into exactly the stored items', async () => {
    const file = path.join(dir, 'whole.csv');
    const report = await finished('transfer:exportTable', {
      connectionId: 'local',
      table,
      format: 'csv',
      path: file,
    });
    expect(report.items).toBe(ITEMS);
    const target = await createEmpty(h.client);
    const requestId = id('import');
    const ended = h.waitFor(requestId);
    const started = await h.call('transfer:import', {
      requestId,
      connectionId: 'local',
      table: target,
      format: 'csv' satisfies TransferFormat,
      source: { path: file },
      dryRun: false,
      mode: 'overwrite',
      confirmTable: target,
    });
    expect(started.ok).toBe(true);
    const { last } = await ended;
    expect(last.type).toBe('done');
    expect((last as { value: ImportReport }).value).toMatchObject({
      total: ITEMS,
      written: ITEMS,
      invalid: 0,
    });
    expect(await storedItems(target)).toEqual(await storedItems(table));
  });

  it("exports an index's items only: a sparse index gives the items that hold its key", async () => {
    const file = path.join(dir, 'index.jsonl');
    const report = await finished('transfer:exportTable', {
      connectionId: 'local',
      table,
      index: 'byStatus',
      format: 'jsonl',
      path: file,
    });
    const inIndex = await storedItems(table, 'byStatus');
    expect(inIndex.length).toBeGreaterThan(0);
    expect(inIndex.length).toBeLessThan(ITEMS);
    expect(report.items).toBe(inIndex.length);
    expect(itemsInFile(file, 'jsonl')).toEqual(inIndex);
  });

  it('refuses an index the table does not have, naming the ones it has', async () => {
    const answer = await h.call('transfer:exportTable', {
      requestId: id('texport'),
      connectionId: 'local',
      table,
      index: 'byNothing',
      format: 'jsonl',
      path: path.join(dir, 'never.jsonl'),
    });
    expect(answer.ok).toBe(false);
    if (!answer.ok)
      expect(answer.error.message).toBe(`${table} has no index named byNothing. Its indexes: byStatus.`);
    expect(existsSync(path.join(dir, 'never.jsonl'))).toBe(false);
  });
});

/** Starts a whole-table export and cancels it as soon as its first page is on disk; answers its id. */
async function cancelledAfterFirstPage(format: TransferFormat, file: string): Promise<string> {
  const requestId = id('texport');
  const ended = h.waitFor(requestId);
  const stop = h.ctx.events.subscribe((event) => {
    if (event.requestId === requestId && event.type === 'progress' && event.progress.items > 0) {
      stop();
      void h.call('ops:cancel', { requestId });
    }
  });
  const started = await h.call('transfer:exportTable', {
    requestId,
    connectionId: 'local',
    table,
    format,
    path: file,
  });
  expect(started.ok).toBe(true);
  expect((await ended).last.type).toBe('cancelled');
  return started.ok ? (started.value as { exportId: string }).exportId : '';
}

describe('cancel and resume', () => {
  it('keeps its place on cancel, shows no file, and resumes to every item exactly once', async () => {
    const file = path.join(dir, 'resumed.jsonl');
    const exportId = await cancelledAfterFirstPage('jsonl', file);
    expect(existsSync(file)).toBe(false);

    const listed = await h.call('transfer:tableExports', { connectionId: 'local', table });
    expect(listed.ok).toBe(true);
    const stopped = (listed.ok ? listed.value : []) as TableExportSummary[];
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatchObject({ exportId, state: 'stopped', format: 'jsonl', path: file });
    expect(stopped[0]?.items).toBeGreaterThan(0);
    expect(stopped[0]?.items).toBeLessThan(ITEMS);

    // A crash between writing a page and saving its place leaves bytes past the place: a resume
    // must cut them off rather than export them.
    appendFileSync(
      path.join(dataFolder.jobs(h.ctx.dataDir, 'export'), `${exportId}.jsonl`),
      '{"Item":{"pk":{"S":"ghost"}}}\n{"It',
    );

    const report = await finished('transfer:resumeTableExport', { exportId });
    expect(report).toMatchObject({ exportId, path: file, items: ITEMS });
    expect(itemsInFile(file, 'jsonl')).toEqual(await storedItems(table));
    expect(existsSync(path.join(dataFolder.jobs(h.ctx.dataDir, 'export'), `${exportId}.jsonl`))).toBe(false);

    const again = await h.call('transfer:resumeTableExport', { requestId: id('texport'), exportId });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error.message).toContain('completed, or it was forgotten');
  });

  it('forgets a stopped export: its place and its pages go', async () => {
    const exportId = await cancelledAfterFirstPage('csv', path.join(dir, 'forgotten.csv'));
    expect(await h.call('transfer:forgetTableExport', { exportId })).toEqual({
      ok: true,
      value: { removed: true },
    });
    expect(existsSync(path.join(dataFolder.jobs(h.ctx.dataDir, 'export'), `${exportId}.jsonl`))).toBe(false);
    expect(await h.call('transfer:tableExports', { connectionId: 'local', table })).toEqual({
      ok: true,
      value: [],
    });
  });
});
