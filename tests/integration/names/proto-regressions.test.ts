import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { queryHandlers } from '../../../src/main/ipc/handlers/query';
import { resultSetHandlers } from '../../../src/main/ipc/handlers/resultsets';
import { transferHandlers } from '../../../src/main/ipc/handlers/transfer';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import type { Envelope, OperationEvent } from '../../../src/shared/ipc';
import type { ImportReport } from '../../../src/shared/ipc/transfer';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../../support/items-context';
import { canonical, rawDynamo, rawGetItem } from '../../support/raw-dynamo';

/**
 * Issue 11: an attribute called `__proto__` (legal in DynamoDB) blanked the table, broke the
 * editor's save and vanished on import; a search in a column called `constructor` crashed the
 * view. Items are written and read back with plain HTTP (raw-dynamo.ts), past the SDK.
 */
let h: ItemsHarness;
let endpoint: string;
let table: string;
let counter = 0;
const id = (prefix: string) => `${prefix}_${++counter}_${Date.now()}`;

// JSON.parse, not a literal: `{ __proto__: … }` in source sets the prototype instead.
const hostile = (pk: string): Item =>
  JSON.parse(
    `{"pk":{"S":"${pk}"},"__proto__":{"S":"top"},"m":{"M":{"__proto__":{"N":"1"},"constructor":{"S":"c"}}},` +
      `"toString":{"S":"to-string needle"},"constructor":{"S":"constructor needle"},"b":{"B":"AAE="}}`,
  ) as Item;

async function operation(channel: string, payload: Record<string, unknown>): Promise<OperationEvent> {
  const requestId = id('op');
  const done = h.waitFor(requestId);
  const started = await h.call(channel, { connectionId: 'local', ...payload, requestId });
  if (!started.ok) throw new Error(started.error.message);
  return (await done).last;
}

function value<T>(envelope: Envelope<T>): T {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value;
}

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, {
    ...queryHandlers,
    ...operationHandlers,
    ...resultSetHandlers,
    ...transferHandlers,
  });
  table = await createItemsTable(h.client, { prefix: 'proto' });
  await rawDynamo(endpoint, 'PutItem', { TableName: table, Item: hostile('p#1') });
  await rawDynamo(endpoint, 'PutItem', { TableName: table, Item: { pk: { S: 'p#2' }, plain: { S: 'x' } } });
});
afterAll(() => h.close());

async function scanned(): Promise<{ resultSetId: string; rows: Item[] }> {
  const requestId = id('scan');
  const done = h.waitFor(requestId);
  const { resultSetId } = value(
    await h.call<{ resultSetId: string }>('query:start', {
      connectionId: 'local',
      table,
      spec: { mode: 'scan' },
      requestId,
    }),
  );
  const { last } = await done;
  expect(last.type, JSON.stringify(last)).toBe('done');
  const window = await h.ctx.resultSets.window(resultSetId, 0, 10);
  return { resultSetId, rows: window.rows };
}

describe('an attribute named __proto__', () => {
  it('a scan (query:start) reads the table, the item exactly as stored', async () => {
    const { rows } = await scanned();
    expect(rows).toHaveLength(2);
    const row = rows.find((r) => canonical(r.pk) === canonical({ S: 'p#1' }));
    expect(canonical(row)).toBe(canonical(await rawGetItem(endpoint, table, { pk: { S: 'p#1' } })));
  });

  it('items:get returns the item with its __proto__ attribute', async () => {
    const got = value(
      await h.call<{ item: Item }>('items:get', { connectionId: 'local', table, key: { pk: { S: 'p#1' } } }),
    );
    expect(Object.keys(got.item)).toContain('__proto__');
    expect(canonical(got.item)).toBe(canonical(await rawGetItem(endpoint, table, { pk: { S: 'p#1' } })));
  });

  it('items:update of another attribute saves, and keeps __proto__', async () => {
    const edited = await createItemsTable(h.client, { prefix: 'protoedit' });
    await rawDynamo(endpoint, 'PutItem', { TableName: edited, Item: hostile('p#edit') });
    const seen = (await rawGetItem(endpoint, edited, { pk: { S: 'p#edit' } })) as Item;
    const desired: Item = { ...seen, note: { S: 'edited' } };
    const saved = value(
      await h.call<{ item: Item; kind: string }>('items:update', {
        connectionId: 'local',
        table: edited,
        seen,
        desired,
      }),
    );
    expect(saved.kind).toBe('update');
    expect(canonical(saved.item)).toBe(canonical(desired));
    expect(canonical(await rawGetItem(endpoint, edited, { pk: { S: 'p#edit' } }))).toBe(canonical(desired));
  });

  it.each([
    ['jsonl', (item: Item) => JSON.stringify({ Item: item })],
    ['dynamodb-json', (item: Item) => JSON.stringify({ Items: [item] })],
  ] as const)('import as %s keeps __proto__, top level and in a map', async (format, text) => {
    const target = await createItemsTable(h.client, { prefix: 'protoimport' });
    const item = hostile('i#1');
    const last = await operation('transfer:import', {
      table: target,
      format,
      source: { text: text(item) },
      dryRun: false,
    });
    expect(last.type, JSON.stringify(last)).toBe('done');
    const report = (last as { value: ImportReport }).value;
    expect(report).toMatchObject({ total: 1, written: 1, invalid: 0 });
    expect(canonical(await rawGetItem(endpoint, target, { pk: { S: 'i#1' } }))).toBe(canonical(item));
  });
});

describe('resultsets:view in a column named like an Object.prototype member', () => {
  it.each([
    ['constructor', 'constructor needle'],
    ['toString', 'to-string needle'],
    ['__proto__', 'top'],
    ['hasOwnProperty', 'nothing has it'],
  ])('searching %s finds the rows holding it', async (column, text) => {
    const { resultSetId } = await scanned();
    const view = value(
      await h.call<{ viewId: string; total: number }>('resultsets:view', {
        resultSetId,
        spec: { text, column },
      }),
    );
    expect(view.total).toBe(column === 'hasOwnProperty' ? 0 : 1);
    const sorted = value(
      await h.call<{ viewId: string; total: number }>('resultsets:view', {
        resultSetId,
        spec: { sort: [{ column, descending: false }] },
      }),
    );
    const window = await h.ctx.resultSets.window(resultSetId, 0, 10, sorted.viewId);
    // Rows without the attribute sort last; an inherited `toString` once sorted first.
    const first = canonical((window.rows[0] as Item).pk);
    if (column !== 'hasOwnProperty') expect(first).toBe(canonical({ S: 'p#1' }));
    expect(window.rows).toHaveLength(2);
  });
});
