import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operationHandlers } from '../../src/main/ipc/handlers/operations';
import { sqlHandlers } from '../../src/main/ipc/handlers/sql';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import type { SqlResultSummary } from '../../src/shared/ipc/sql';
import type { ExportReport, RowsFormat } from '../../src/shared/ipc/transfer';
import { createKeyedTable } from '../support/dynamo-tables';
import { uniqueTableName } from '../support/dynamo-local';
import { itemsHarness, useAppClients, type ItemsHarness } from '../support/items-context';
import { rawDynamo, rawReadAll } from '../support/raw-dynamo';
import { nextRequestId } from '../support/table-admin';

/**
 * A SQL result exported through the one export path (transfer:export with sqlResultId) in every
 * format, byte for byte against a rendering of DynamoDB Local's own wire JSON written here:
 * hostile attribute names, 38-digit numbers, binary, sets, nested maps, NULL and missing values.
 */
let h: ItemsHarness;
const table = uniqueTableName('sqlexport');
const BIG = '12345678901234567890123456789012345678';
const COLUMNS = [
  'id',
  '__proto__',
  'a.b',
  '#x',
  '[0]',
  'n',
  'bin',
  'tags',
  'nums',
  'nested',
  'flag',
  'nothing',
];

type Wire = Record<string, unknown>;
const rows: Wire[] = Array.from({ length: 30 }, (_, i) => {
  const item: Wire = { id: { S: `row-${String(i).padStart(2, '0')}` } };
  const define = (name: string, value: unknown) =>
    Object.defineProperty(item, name, { value, enumerable: true, writable: true, configurable: true });
  if (i % 5 !== 0) define('__proto__', { S: `proto, "quoted"\nline ${i}` });
  define('a.b', { N: i % 2 ? BIG : `-${i}.5` });
  if (i % 3 !== 1) define('#x', { S: i % 4 ? `x${i}` : '' });
  define('[0]', { BOOL: i % 2 === 0 });
  define('n', { N: String(i) });
  if (i % 4 === 0) define('bin', { B: 'AAE=' });
  if (i % 6 === 0) define('tags', { SS: ['b', 'a,c'] });
  if (i % 7 === 0) define('nums', { NS: [BIG] });
  const nested: Wire = { z: { N: BIG }, 'a.b': { L: [{ S: 'x' }, { NULL: true }] } };
  Object.defineProperty(nested, '__proto__', { value: { S: 'deep' }, enumerable: true });
  define('nested', { M: nested });
  define('flag', { NULL: true });
  return item;
});

beforeAll(async () => {
  h = itemsHarness(inject('dynamoEndpoint'), { ...operationHandlers, ...sqlHandlers, ...transferHandlers });
  useAppClients(h);
  await createKeyedTable(h.client, table, { items: [] });
  // Put past the SDK and DynoTable: the oracle below shares no path with what it checks.
  for (const item of rows)
    await rawDynamo(inject('dynamoEndpoint'), 'PutItem', { TableName: table, Item: item });
}, 60_000);
afterAll(() => h.close());

async function finished(channel: string, payload: Record<string, unknown>): Promise<unknown> {
  const requestId = nextRequestId('sqlexport');
  const done = h.waitFor(requestId);
  const started = await h.call(channel, { ...payload, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(JSON.stringify(last));
  return last.value;
}

// ---- the oracle: DynamoDB Local's wire JSON, rendered by hand ----
const own = (item: Wire, name: string): Wire | undefined =>
  Object.hasOwn(item, name) ? (item[name] as Wire) : undefined;
const sortedMap = (m: Wire): Wire => {
  const out: Wire = {};
  for (const name of Object.keys(m).sort())
    Object.defineProperty(out, name, { value: sortedValue(m[name] as Wire), enumerable: true });
  return out;
};
const sortedValue = (v: Wire): Wire =>
  'M' in v ? { M: sortedMap(v.M as Wire) } : 'L' in v ? { L: (v.L as Wire[]).map(sortedValue) } : v;
function plain(v: Wire): string {
  const [[type, x]] = Object.entries(v) as [[string, unknown]];
  if (type === 'N') return x as string;
  if (type === 'NULL') return 'null';
  if (type === 'NS') return `[${(x as string[]).join(',')}]`;
  if (type === 'L') return `[${(x as Wire[]).map(plain).join(',')}]`;
  if (type === 'M')
    return `{${Object.keys(x as Wire)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${plain((x as Wire)[k] as Wire)}`)
      .join(',')}}`;
  return JSON.stringify(x);
}
function csvCell(v: Wire | undefined): string {
  if (!v || 'NULL' in v) return '';
  const [[type, x]] = Object.entries(v) as [[string, unknown]];
  const text =
    type === 'S' || type === 'N' || type === 'B' ? (x as string) : type === 'BOOL' ? String(x) : plain(v);
  if (text === '') return '""';
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
function itemJson(item: Wire): string {
  const out: Wire = {};
  for (const name of COLUMNS) {
    const v = own(item, name);
    if (v) Object.defineProperty(out, name, { value: sortedValue(v), enumerable: true });
  }
  return JSON.stringify(out);
}
function expected(format: RowsFormat, items: Wire[]): string {
  switch (format) {
    case 'csv':
      // No name or value here starts like a spreadsheet formula, so no cell needs the guard.
      return [COLUMNS, ...items.map((item) => COLUMNS.map((c) => csvCell(own(item, c))))]
        .map((cells) => `${cells.join(',')}\r\n`)
        .join('');
    case 'json':
      return `[\n${items.map((item) => `  {${COLUMNS.map((c) => `${JSON.stringify(c)}:${own(item, c) ? plain(own(item, c)!) : 'null'}`).join(',')}}`).join(',\n')}\n]\n`;
    case 'jsonl':
      return items.map((item) => `{"Item":${itemJson(item)}}\n`).join('');
    case 'dynamodb-json':
      return `{"Items": [\n${items.map(itemJson).join(',\n')}\n]}\n`;
  }
}

describe('a SQL result exported through transfer:export', () => {
  let resultId: string;
  let wire: Wire[];

  beforeAll(async () => {
    const select = COLUMNS.map((c) => `"${c}"`).join(', ');
    const summary = (await finished('sql:run', {
      connectionId: 'local',
      sql: `SELECT ${select} FROM "${table}" ORDER BY id`,
    })) as SqlResultSummary;
    expect(summary.columns).toEqual(COLUMNS);
    expect(summary.total).toBe(rows.length);
    resultId = summary.resultId;
    wire = (await rawReadAll(inject('dynamoEndpoint'), 'Scan', { TableName: table })).sort((a, b) =>
      (a.id as { S: string }).S < (b.id as { S: string }).S ? -1 : 1,
    );
  });

  it.each(['csv', 'json', 'jsonl', 'dynamodb-json'] as const)(
    'writes every row as %s, byte for byte as the wire JSON renders',
    async (format) => {
      const file = path.join(h.ctx.dataDir, `result.${format}`);
      const report = (await finished('transfer:export', {
        sqlResultId: resultId,
        format,
        path: file,
      })) as ExportReport;
      const text = await readFile(file, 'utf8');
      expect(report.items).toBe(rows.length);
      expect(report.bytes).toBe(Buffer.byteLength(text));
      expect(text).toBe(expected(format, wire));
    },
  );

  it('refuses an export that names no rows, both kinds, or a result no longer kept, with a sentence', async () => {
    const refusal = (ids: Record<string, string>) =>
      h.call('transfer:export', {
        ...ids,
        requestId: nextRequestId('sqlexport'),
        format: 'csv',
        path: path.join(h.ctx.dataDir, 'refused.csv'),
      });
    expect(await refusal({})).toMatchObject({ ok: false, error: { code: 'InvalidInput' } });
    expect(await refusal({ resultSetId: 'rs-1', sqlResultId: resultId })).toMatchObject({
      ok: false,
      error: { code: 'InvalidInput' },
    });
    expect(await refusal({ sqlResultId: 'sql-gone-1' })).toMatchObject({
      ok: false,
      error: { code: 'NotFound' },
    });
  });
});
