import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operationHandlers } from '../../src/main/ipc/handlers/operations';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import type { ImportReport, TableExportReport, TransferFormat } from '../../src/shared/ipc/transfer';
import { canonicalItems, rawPutAll, rawScanAll } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { createHostileMultiKeyTable, HOSTILE_INDEX } from '../support/hostile-multi-key';
import { itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';
import { rawReadAll, rawScanItems } from '../support/raw-dynamo';

/**
 * Exports and imports of a table with a 2 + 2 multi-attribute GSI (`__proto__` + `a.b`
 * partition it, `#x` + `[0]` sort it; the table is keyed on `id`), checked against DynamoDB
 * Local's own wire JSON: the key attributes lead every export in key-model order, and what an
 * export of the index holds comes back unchanged when imported into a copy.
 */
const KEY_ORDER = ['id', '__proto__', 'a.b', '#x', '[0]'];

let h: ItemsHarness;
let endpoint: string;
let table: string;
let dir: string;
let counter = 0;
const id = (prefix: string) => `${prefix}_${++counter}_${Date.now()}`;

async function finished<T>(channel: string, payload: Record<string, unknown>): Promise<T> {
  const requestId = id('mtransfer');
  const ended = h.waitFor(requestId);
  const started = await h.call(channel, { ...payload, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await ended;
  if (last.type !== 'done') throw new Error(`ended with ${last.type}: ${JSON.stringify(last)}`);
  return last.value as T;
}

/** The items of an export file as parsed wire JSON (`__proto__` stays an own name). */
function itemsOf(file: string, format: TransferFormat): Record<string, unknown>[] {
  const text = readFileSync(file, 'utf8');
  if (format === 'jsonl')
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { Item: Record<string, unknown> }).Item);
  return (JSON.parse(text) as { Items: Record<string, unknown>[] }).Items;
}

/** The CSV's first row: the column names. */
function csvHeader(file: string): string[] {
  return (readFileSync(file, 'utf8').split('\r\n')[0] ?? '').split(',').map((c) => c.replace(/^"|"$/g, ''));
}

/** DynamoDB Local's own answer to the query the grid ran: `__proto__ = t0 AND a.b = eu` on the index. */
function rawIndexQuery(): Promise<Record<string, unknown>[]> {
  return rawReadAll(endpoint, 'Query', {
    TableName: table,
    IndexName: HOSTILE_INDEX,
    KeyConditionExpression: '#p = :p AND #a = :a',
    ExpressionAttributeNames: { '#p': '__proto__', '#a': 'a.b' },
    ExpressionAttributeValues: { ':p': { S: 't0' }, ':a': { S: 'eu' } },
  });
}

async function importInto(file: string, format: TransferFormat): Promise<string> {
  const copy = uniqueTableName('mtransfer_copy');
  await createHostileMultiKeyTable(endpoint, copy, 0);
  const report = await finished<ImportReport>('transfer:import', {
    connectionId: 'local',
    table: copy,
    format,
    source: { path: file },
    mode: 'create-only',
    dryRun: false,
  });
  expect(report).toMatchObject({ invalid: 0, failed: 0 });
  return copy;
}

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, { ...queryHandlers, ...transferHandlers, ...operationHandlers });
  dir = mkdtempSync(path.join(tmpdir(), 'dynotable-multi-transfer-'));
  table = uniqueTableName('mtransfer');
  await createHostileMultiKeyTable(endpoint, table, 24);
  // Two items the index does not hold: one lacks `a.b`, one holds every key attribute but `[0]`;
  // and two it holds, written with their names in another order than the key's.
  await rawPutAll(endpoint, table, [
    JSON.parse(
      '{"constructor":{"S":"cs1"},"[0]":{"N":"90"},"#x":{"S":"d9"},"a.b":{"S":"eu"},"__proto__":{"S":"t0"},"id":{"S":"scrambled1"}}',
    ) as Record<string, unknown>,
    JSON.parse(
      '{"zz":{"N":"1"},"#x":{"S":"d8"},"id":{"S":"scrambled2"},"[0]":{"N":"91"},"__proto__":{"S":"t0"},"a.b":{"S":"eu"}}',
    ) as Record<string, unknown>,
    JSON.parse('{"id":{"S":"out1"},"__proto__":{"S":"t0"},"#x":{"S":"d0"},"[0]":{"N":"1"}}') as Record<
      string,
      unknown
    >,
    JSON.parse('{"id":{"S":"out2"},"__proto__":{"S":"t0"},"a.b":{"S":"eu"},"#x":{"S":"d0"}}') as Record<
      string,
      unknown
    >,
  ]);
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['dynamodb-json', 'jsonl', 'csv'] as TransferFormat[])(
  'an index query exported as %s',
  (format) => {
    it("leads with the table's key then the index's, and imports back into a copy as DynamoDB Local holds it", async () => {
      const { resultSetId, last } = await runQuery(h, {
        table,
        spec: {
          mode: 'query',
          index: HOSTILE_INDEX,
          partitionKey: { S: 't0' },
          morePartitionKeys: [{ S: 'eu' }],
        },
        maxItems: 1000,
      });
      expect(last.type).toBe('done');
      const oracle = await rawIndexQuery();
      expect(oracle.length).toBeGreaterThan(2);
      // DynamoDB does not answer with the key first: the order below is the export's doing.
      expect(oracle.some((i) => Object.keys(i).slice(0, KEY_ORDER.length).join() !== KEY_ORDER.join())).toBe(
        true,
      );

      const file = path.join(dir, `query.${format}`);
      await finished('transfer:export', { resultSetId, format, path: file });
      if (format === 'csv') expect(csvHeader(file).slice(0, KEY_ORDER.length)).toEqual(KEY_ORDER);
      else {
        const items = itemsOf(file, format);
        expect(canonicalItems(items)).toEqual(canonicalItems(oracle));
        for (const item of items) expect(Object.keys(item).slice(0, KEY_ORDER.length)).toEqual(KEY_ORDER);
      }

      const copy = await importInto(file, format);
      expect(canonicalItems(await rawScanAll(endpoint, copy))).toEqual(canonicalItems(oracle));
      // The copy's index answers the same query with the same items.
      const copied = await rawReadAll(endpoint, 'Query', {
        TableName: copy,
        IndexName: HOSTILE_INDEX,
        KeyConditionExpression: '#p = :p AND #a = :a',
        ExpressionAttributeNames: { '#p': '__proto__', '#a': 'a.b' },
        ExpressionAttributeValues: { ':p': { S: 't0' }, ':a': { S: 'eu' } },
      });
      expect(canonicalItems(copied)).toEqual(canonicalItems(oracle));
    });

    it('exports the whole index: every item it projects, once, keys first', async () => {
      const file = path.join(dir, `index.${format}`);
      const report = await finished<TableExportReport>('transfer:exportTable', {
        connectionId: 'local',
        table,
        index: HOSTILE_INDEX,
        format,
        path: file,
      });
      const inIndex = await rawScanItems(endpoint, table, HOSTILE_INDEX);
      expect(inIndex).toHaveLength(26);
      expect(report.items).toBe(inIndex.length);
      if (format === 'csv') {
        expect(csvHeader(file).slice(0, KEY_ORDER.length)).toEqual(KEY_ORDER);
        // Imported into a copy, the CSV gives back exactly the index's items.
        const copy = await importInto(file, format);
        expect(canonicalItems(await rawScanAll(endpoint, copy))).toEqual(canonicalItems(inIndex));
      } else {
        const items = itemsOf(file, format);
        expect(canonicalItems(items)).toEqual(canonicalItems(inIndex));
        expect(new Set(items.map((i) => JSON.stringify(i.id))).size).toBe(items.length);
        for (const item of items) expect(Object.keys(item).slice(0, KEY_ORDER.length)).toEqual(KEY_ORDER);
      }
    });
  },
);
