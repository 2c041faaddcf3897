import { GetItemCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../src/main/dynamo/marshal';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { ExportReport, ImportReport, TransferFormat } from '../../src/shared/ipc/transfer';
import { everyTypeItem } from '../fixtures/items-every-type';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { expectSameItem, failure } from '../support/items-assert';
import { canonical, rawGetItem } from '../support/raw-dynamo';
import { createItemsTable, itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';

let h: ItemsHarness;
let source: string;
let resultSetId: string;
let dir: string;
let counter = 0;
const originals: Item[] = [
  everyTypeItem('t#1'),
  everyTypeItem('t#2'),
  {
    pk: { S: 't#3' },
    status: { N: '7' },
    emptyString: { S: '' },
    only: { S: 'here, with "quotes"\nand a newline' },
  },
];

const id = (prefix: string) => `${prefix}_${++counter}_${Date.now()}`;

async function operation<T>(channel: string, payload: Record<string, unknown>): Promise<T> {
  const requestId = id('transfer');
  const done = h.waitFor(requestId);
  const started = await h.call(channel, { ...payload, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`ended with ${last.type}: ${JSON.stringify(last)}`);
  return last.value as T;
}

async function scanAll(table: string): Promise<Item[]> {
  const page = await h.client.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
  return (page.Items ?? []).map(fromSdkItem);
}

beforeAll(async () => {
  h = itemsHarness(inject('dynamoEndpoint'), { ...queryHandlers, ...transferHandlers });
  dir = mkdtempSync(path.join(tmpdir(), 'dynotable-transfer-'));
  source = await createItemsTable(h.client, { prefix: 'export' });
  for (const item of originals)
    await h.client.send(new PutItemCommand({ TableName: source, Item: toSdkItem(item) }));
  ({ resultSetId } = await runQuery(h, { table: source, spec: { mode: 'scan' } }));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['dynamodb-json', 'jsonl', 'csv'] as TransferFormat[])('export then import as %s', (format) => {
  it('brings back every item unchanged, dry-runs first, never replaces existing items, then edits like the UI', async () => {
    const file = path.join(dir, `all.${format}`);
    const exported = await operation<ExportReport>('transfer:export', { resultSetId, format, path: file });
    expect(exported).toMatchObject({ path: file, items: 3 });
    expect(existsSync(`${file}.part`)).toBe(false);
    if (format === 'jsonl') expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^\{"Item":\{/);
    if (format === 'csv') expect(readFileSync(file, 'utf8').split('\r\n')[1]).toMatch(/(^|,)\*(,|$)/);

    const target = await createItemsTable(h.client, { prefix: 'import' });
    const base = {
      connectionId: 'local',
      table: target,
      format,
      source: { path: file },
      mode: 'create-only',
    };
    const dry = await operation<ImportReport>('transfer:import', { ...base, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, total: 3, written: 3, existing: 0, invalid: 0, failed: 0 });
    expect(dry.sample).toHaveLength(3);
    expect(await scanAll(target)).toEqual([]);

    const real = await operation<ImportReport>('transfer:import', { ...base, dryRun: false });
    expect(real).toMatchObject({ total: 3, written: 3, existing: 0, invalid: 0, failed: 0 });
    const imported = await scanAll(target);
    for (const original of originals) {
      expectSameItem(
        imported.find((i) => (i.pk as { S: string }).S === (original.pk as { S: string }).S),
        original,
      );
    }

    const again = await operation<ImportReport>('transfer:import', { ...base, dryRun: true });
    expect(again).toMatchObject({ written: 0, existing: 3 });
    const repeat = await operation<ImportReport>('transfer:import', { ...base, dryRun: false });
    expect(repeat).toMatchObject({ written: 0, existing: 3 });

    // Edit one attribute of the imported every-type item through the UI's save path.
    const seen = imported.find((i) => (i.pk as { S: string }).S === 't#1') as Item;
    const desired: Item = { ...seen, 'a.b': { S: 'edited after import' } };
    const saved = await h.call('items:update', { connectionId: 'local', table: target, seen, desired });
    expect(saved.ok).toBe(true);
    const stored = await h.client.send(
      new GetItemCommand({ TableName: target, Key: { pk: { S: 't#1' } }, ConsistentRead: true }),
    );
    expectSameItem(stored.Item ? fromSdkItem(stored.Item) : null, {
      ...everyTypeItem('t#1'),
      'a.b': { S: 'edited after import' },
    });
  });
});

describe('transfer problems', () => {
  it('reports bad lines by number and imports the good ones', async () => {
    const file = path.join(dir, 'broken.jsonl');
    const lines = [
      JSON.stringify({ Item: { pk: { S: 'good#1' } } }),
      '{"Item": {"pk": {"S": "broken"}',
      JSON.stringify({ Item: { other: { S: 'no key' } } }),
      JSON.stringify({ Item: { pk: { S: 'bad-set' }, s: { SS: [] } } }),
      JSON.stringify({ pk: { S: 'good#2' }, n: { N: '12345678901234567890123456789012345678' } }),
    ];
    writeFileSync(file, lines.join('\n'));
    const target = await createItemsTable(h.client, { prefix: 'broken' });
    const report = await operation<ImportReport>('transfer:import', {
      connectionId: 'local',
      table: target,
      format: 'jsonl',
      source: { path: file },
      dryRun: false,
    });
    expect(report).toMatchObject({ total: 5, written: 2, invalid: 3 });
    expect(report.failures.map((f) => [f.line, f.message.slice(0, 40)])).toEqual([
      [2, expect.stringMatching(/^not valid JSON/) as unknown],
      [3, 'pk: The partition key "pk" is required.'],
      [4, 's: A set cannot be empty in DynamoDB: re'],
    ]);
    expect((await scanAll(target)).find((i) => (i.pk as { S: string }).S === 'good#2')?.n).toEqual({
      N: '12345678901234567890123456789012345678',
    });
  });

  it('tells an item whose one attribute is named Item from the export wrapper by its shape', async () => {
    // A table keyed on "Item": a bare item {"Item": {"S": …}} is one attribute, not a wrapper.
    const target = await createTable(h.client, uniqueTableName('itemkey'), { partitionKey: ['Item', 'S'] });
    const file = path.join(dir, 'item-named-item.jsonl');
    const bare = { Item: { S: 'bare#1' } };
    const wrapped = { Item: { Item: { S: 'wrapped#1' }, n: { N: '1.5' } } };
    const bareWithMap = { Item: { S: 'bare#2' }, note: { M: { Item: { S: 'nested' } } } };
    writeFileSync(file, [bare, wrapped, bareWithMap].map((line) => JSON.stringify(line)).join('\n'));
    const report = await operation<ImportReport>('transfer:import', {
      connectionId: 'local',
      table: target,
      format: 'jsonl',
      source: { path: file },
      dryRun: false,
    });
    expect(report).toMatchObject({ total: 3, written: 3, invalid: 0 });
    // The oracle: DynamoDB Local's own wire JSON for each key.
    const endpoint = inject('dynamoEndpoint');
    expect(canonical(await rawGetItem(endpoint, target, { Item: { S: 'bare#1' } }))).toBe(canonical(bare));
    expect(canonical(await rawGetItem(endpoint, target, { Item: { S: 'wrapped#1' } }))).toBe(
      canonical(wrapped.Item),
    );
    expect(canonical(await rawGetItem(endpoint, target, { Item: { S: 'bare#2' } }))).toBe(
      canonical(bareWithMap),
    );
  });

  it('says which row and column is wrong without echoing the uploaded value at length', async () => {
    const long = `12${'9'.repeat(5000)}x`;
    const forged = 'te\u202en\nLine 99: all rows were written';
    const hugeName = `col${'n'.repeat(3000)}`;
    const csv = [
      `pk,price,${hugeName}`,
      'S,N,N',
      'ok#1,1,2',
      `bad#1,"${long}",3`,
      `bad#2,"${forged}",4`,
      'bad#3,5,six',
      'bad#4,1',
    ].join('\r\n');
    const file = path.join(dir, 'hostile.csv');
    writeFileSync(file, csv);
    const target = await createItemsTable(h.client, { prefix: 'hostile' });
    const report = await operation<ImportReport>('transfer:import', {
      connectionId: 'local',
      table: target,
      format: 'csv',
      source: { path: file },
      dryRun: false,
    });
    expect(report).toMatchObject({ format: 'csv', total: 5, written: 1, invalid: 4 });
    // Rows, not lines: bad#2's quoted cell spans two lines of the file and is still row 5.
    const [tooLong, newline, namedColumn, shortRow] = report.failures;
    expect(report.failures.map((f) => f.line)).toEqual([4, 5, 6, 7]);
    expect(tooLong?.message).toMatch(
      /^Column "price" \(N\): the number "12999.*…" \(5,003 characters\) is not a number\.$/,
    );
    // A newline or a direction override in the value is shown escaped: one line, read left to right.
    expect(newline?.message).toBe(
      'Column "price" (N): the number "te\\u{202e}n\\u{a}Line 99: all rows were writ…" (35 characters) is not a number.',
    );
    expect(namedColumn?.message).toMatch(
      /^Column "colnnn.*…" \(3,003 characters\) \(N\): the number "six" is not a number\.$/,
    );
    expect(shortRow?.message).toBe('This row has 2 cells; the header names 3 columns.');
    for (const f of report.failures) {
      expect(f.message.length).toBeLessThan(200);
      expect(f.message).not.toMatch(/[\n\u202e]/);
    }
    expect((await scanAll(target)).map((i) => i.pk)).toEqual([{ S: 'ok#1' }]);
  });

  it('will not overwrite an existing file unasked, nor import through a read-only connection', async () => {
    const file = path.join(dir, 'exists.json');
    writeFileSync(file, 'keep me');
    const refused = await h.call('transfer:export', {
      requestId: id('export'),
      resultSetId,
      format: 'dynamodb-json',
      path: file,
    });
    expect(failure(refused, 'FileExists').message).toMatch(/already exists/);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    const readOnly = await h.call('transfer:import', {
      requestId: id('import'),
      connectionId: 'ro',
      table: source,
      format: 'jsonl',
      source: { text: '{"Item": {"pk": {"S": "x"}}}' },
      dryRun: false,
    });
    failure(readOnly, 'ReadOnlyConnection');
  });
});
