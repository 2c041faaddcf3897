import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { queryHandlers } from '../../../src/main/ipc/handlers/query';
import { transferHandlers } from '../../../src/main/ipc/handlers/transfer';
import type { AttributeValue, Item } from '../../../src/shared/dynamo/attribute-value';
import { formatDynamoJson, parseDynamoJson } from '../../../src/shared/dynamo/item-json';
import { defineOwn } from '../../../src/shared/dynamo/proto-keys';
import type { Envelope, OperationEvent } from '../../../src/shared/ipc';
import type { ImportReport, TransferFormat } from '../../../src/shared/ipc/transfer';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../../support/items-context';
import { canonical, rawDynamo, rawGetItem } from '../../support/raw-dynamo';

/**
 * Attribute names are data (issue 11): items whose names come from a hostile set, top level and
 * nested in maps, go through every path a user has (create, get, query and scan into the
 * result-set worker, the editor's JSON, save, search and sort, export and import in every
 * format) and each result is compared with what DynamoDB Local itself stores, read as raw wire
 * JSON past the SDK and DynoTable.
 */
const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '\u200b',
  '\u200b\u200d',
  '\ufeff',
  'a.b',
  '#x',
  'a:b',
  '[0]',
  'x'.repeat(255),
  `${'é'.repeat(127)}x`,
];

const name = fc.constantFrom(...HOSTILE_NAMES);

const scalar: fc.Arbitrary<AttributeValue> = fc.oneof(
  fc.string({ maxLength: 12 }).map((S) => ({ S })),
  fc.constantFrom('0', '1', '-2.5', '12345678901234567890123456789012345678').map((N) => ({ N })),
  fc.boolean().map((BOOL) => ({ BOOL })),
  fc.constant({ NULL: true as const }),
  fc.constantFrom('AAE=', '', '/w==').map((B) => ({ B })),
  fc.uniqueArray(name, { minLength: 1, maxLength: 3 }).map((SS) => ({ SS })),
);

/** A record built with defineOwn: fast-check's own dictionaries assign, which loses `__proto__`. */
function record<T>(entries: [string, T][]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, value] of entries) defineOwn(out, name, value);
  return out;
}

const attributes = (value: fc.Arbitrary<AttributeValue>, max: number) =>
  fc
    .uniqueArray(fc.tuple(name, value), {
      maxLength: max,
      selector: ([name]) => name,
    })
    .map(record);

const nested: fc.Arbitrary<AttributeValue> = fc.oneof(
  scalar,
  attributes(scalar, 4).map((M) => ({ M })),
  fc
    .array(
      attributes(scalar, 3).map((M) => ({ M })),
      { maxLength: 2 },
    )
    .map((L) => ({ L })),
);
const value: fc.Arbitrary<AttributeValue> = fc.oneof(
  nested,
  attributes(nested, 3).map((M) => ({ M })),
);

let h: ItemsHarness;
let endpoint: string;
let table: string;
let dir: string;
let counter = 0;
const id = (prefix: string) => `${prefix}_${++counter}_${Date.now()}`;

function ok<T>(envelope: Envelope<T>, what: string): T {
  if (!envelope.ok) throw new Error(`${what}: ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value;
}

async function operation(channel: string, payload: Record<string, unknown>): Promise<OperationEvent> {
  const requestId = id('op');
  const done = h.waitFor(requestId);
  ok(await h.call(channel, { connectionId: 'local', ...payload, requestId }), channel);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`${channel} ended with ${JSON.stringify(last)}`);
  return last;
}

async function readInto(channel: 'query:start', payload: Record<string, unknown>) {
  const requestId = id('read');
  const done = h.waitFor(requestId);
  const { resultSetId } = ok(
    await h.call<{ resultSetId: string }>(channel, { connectionId: 'local', requestId, ...payload }),
    channel,
  );
  const { last } = await done;
  expect(last.type, JSON.stringify(last)).toBe('done');
  return resultSetId;
}

async function rawScan(target: string): Promise<string[]> {
  const answer = await rawDynamo<{ Items: Item[] }>(endpoint, 'Scan', {
    TableName: target,
    ConsistentRead: true,
  });
  return answer.Items.map((i) => canonical(i)).sort();
}

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, { ...queryHandlers, ...operationHandlers, ...transferHandlers });
  table = await createItemsTable(h.client, { prefix: 'hostile' });
  dir = mkdtempSync(path.join(tmpdir(), 'dynotable-names-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hostile attribute names through every path, against DynamoDB Local wire JSON', () => {
  it('create, get, query, editor JSON, save, search and sort keep every name', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(attributes(value, 6), value, name, name, async (rest, edit, target, removed) => {
        const key = { pk: { S: `h#${++run}` } };
        const item: Item = { ...key, ...rest };

        ok(await h.call('items:create', { connectionId: 'local', table, item }), 'items:create');
        const stored = await rawGetItem(endpoint, table, key);
        expect(canonical(stored)).toBe(canonical(item));

        const got = ok(
          await h.call<{ item: Item }>('items:get', { connectionId: 'local', table, key }),
          'get',
        );
        expect(canonical(got.item)).toBe(canonical(stored));
        expect(canonical(parseDynamoJson(formatDynamoJson(got.item)))).toBe(canonical(stored));

        const resultSetId = await readInto('query:start', {
          table,
          spec: { mode: 'query', partitionKey: key.pk, consistent: true },
        });
        const window = await h.ctx.resultSets.window(resultSetId, 0, 10);
        expect(window.rows.map((r) => canonical(r))).toEqual([canonical(stored)]);

        for (const name of Object.keys(rest)) {
          for (const spec of [
            { text: 'zz-not-there', column: name },
            { sort: [{ column: name, descending: true }] },
          ]) {
            const view = ok(
              await h.call<{ total: number }>('resultsets:view', { resultSetId, spec }),
              `resultsets:view ${JSON.stringify(spec)}`,
            );
            expect(view.total).toBe('text' in spec ? 0 : 1);
          }
        }

        // Save: one name set to a new value, another removed.
        const desired: Item = record(Object.entries(got.item).filter(([n]) => n !== removed));
        defineOwn(desired, target, edit);
        const saved = ok(
          await h.call<{ item: Item }>('items:update', {
            connectionId: 'local',
            table,
            seen: got.item,
            desired,
          }),
          'items:update',
        );
        const after = await rawGetItem(endpoint, table, key);
        expect(canonical(after)).toBe(canonical(desired));
        expect(canonical(saved.item)).toBe(canonical(after));
      }),
      { numRuns: 30, seed: 11, endOnFailure: true },
    );
  });

  it('scan, then export and import in every format, bring back every item as stored', async () => {
    const source = await createItemsTable(h.client, { prefix: 'hostilescan' });
    const items = fc.sample(attributes(value, 6), { numRuns: 25, seed: 1111 });
    for (const [i, rest] of items.entries())
      await rawDynamo(endpoint, 'PutItem', { TableName: source, Item: { pk: { S: `s#${i}` }, ...rest } });
    const stored = await rawScan(source);

    const resultSetId = await readInto('query:start', {
      table: source,
      spec: { mode: 'scan' },
      maxItems: 1000,
    });
    const window = await h.ctx.resultSets.window(resultSetId, 0, 100);
    expect(window.rows.map((r) => canonical(r)).sort()).toEqual(stored);

    for (const format of ['jsonl', 'dynamodb-json', 'csv'] as TransferFormat[]) {
      const file = path.join(dir, `all-${format}`);
      await operation('transfer:export', { resultSetId, format, path: file });
      const target = await createItemsTable(h.client, { prefix: `hostile${format.replace('-', '')}` });
      const done = await operation('transfer:import', {
        table: target,
        format,
        source: { path: file },
        dryRun: false,
      });
      const report = (done as { value: ImportReport }).value;
      expect(report, format).toMatchObject({ total: items.length, written: items.length, invalid: 0 });
      expect(await rawScan(target), format).toEqual(stored);
    }
  });
});
