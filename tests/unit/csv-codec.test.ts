import { parse as rawParse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRecords, parseCsv } from '../../src/main/csv/csv-text';
import {
  addColumns,
  itemCsvHeader,
  itemCsvRows,
  itemFromRow,
  parseColumns,
  type ColumnType,
} from '../../src/main/csv/item-csv';
import { toCsv } from '../../src/main/migration/export';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { defineOwn } from '../../src/shared/dynamo/proto-keys';
import { everyTypeItem } from '../fixtures/items-every-type';
import { canonical } from '../support/raw-dynamo';

/** Text a spreadsheet could read as a formula, or a CSV writer could get wrong. */
const HOSTILE = [
  '=1+1',
  '=HYPERLINK("http://x","y")',
  '+cmd|" /C calc"!A0',
  '-2+3',
  '@SUM(A1)',
  '\tstart',
  '\rstart',
  "'quoted",
  "''",
  "'",
  '＝1',
  'a,b',
  'say "hi"',
  'line\nbreak',
  'cr\r\nlf',
  ' lead',
  'trail ',
  '',
  '-5',
  '__proto__',
  '"',
];
const NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'a.b',
  '#x',
  '[0]',
  ...HOSTILE.filter((h) => h !== ''),
];

const text = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const number = fc.constantFrom('0', '-5', '12345678901234567890123456789012345678', '-1.5E-120', '1E+125');
const base64 = fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b).toString('base64'));
const leaf: fc.Arbitrary<AttributeValue> = fc.oneof(
  text.map((S) => ({ S })),
  number.map((N) => ({ N })),
  base64.map((B) => ({ B })),
  fc.boolean().map((BOOL) => ({ BOOL })),
  fc.constant({ NULL: true as const }),
  fc.uniqueArray(text, { minLength: 1, maxLength: 3 }).map((SS) => ({ SS })),
);
function record<T>(entries: [string, T][]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [n, v] of entries) defineOwn(out, n, v);
  return out;
}
const name = fc.oneof(fc.constantFrom(...NAMES), fc.string({ minLength: 1, maxLength: 5 }));
const entries = (value: fc.Arbitrary<AttributeValue>, max: number) =>
  fc.uniqueArray(fc.tuple(name, value), { maxLength: max, selector: ([n]) => n }).map(record);
const value = fc.oneof(
  leaf,
  entries(leaf, 3).map((M) => ({ M })),
  fc.array(leaf, { maxLength: 3 }).map((L) => ({ L })),
);
const item = entries(value, 6);

function roundTrip(items: Item[]): Item[] {
  const columns = new Map<string, ColumnType>();
  for (const i of items) addColumns(columns, i);
  const list = [...columns].map(([n, type]) => ({ name: n, type }));
  const rows = parseCsv(itemCsvHeader(list) + itemCsvRows(items, list));
  const parsedColumns = parseColumns(rows[0] ?? [], rows[1] ?? []);
  return rows.slice(2).map((row) => itemFromRow(row, parsedColumns));
}

/** What a spreadsheet sees: the raw cells, no guard taken off. */
function spreadsheetCells(csv: string): string[] {
  const rows: string[][] = rawParse(csv, { relax_column_count: true, record_delimiter: '\r\n' });
  return rows.flat();
}
const FORMULA = /^[=+\-@\t\r＝＋－＠]/;
const isPlainNegative = (cell: string) => /^-\d+(\.\d+)?([eE][-+]?\d+)?$/.test(cell);

describe('the one CSV codec', () => {
  it('brings back every item, every type and every hostile name and value unchanged', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 5 }), (items) => {
        // An all-empty item has no cells and no row to come back in; the export never writes one.
        const kept = items.filter((i) => Object.keys(i).length > 0);
        fc.pre(kept.length > 0);
        expect(roundTrip(kept).map((i) => canonical(i))).toEqual(kept.map((i) => canonical(i)));
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it('keeps the every-type fixture, a missing attribute apart from an empty string', () => {
    const sparse: Item = { pk: { S: 'sparse' }, emptyString: { S: '' } };
    const back = roundTrip([everyTypeItem('t#1'), sparse]);
    expect(canonical(back[0])).toBe(canonical(everyTypeItem('t#1')));
    expect(canonical(back[1])).toBe(canonical(sparse));
  });

  it('never lets a spreadsheet see a formula, in names or values, and leaves numbers as numbers', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 5 }), (items) => {
        const columns = new Map<string, ColumnType>();
        for (const i of items) addColumns(columns, i);
        const list = [...columns].map(([n, type]) => ({ name: n, type }));
        for (const cell of spreadsheetCells(itemCsvHeader(list) + itemCsvRows(items, list)))
          expect(FORMULA.test(cell) && !isPlainNegative(cell), cell).toBe(false);
      }),
      { numRuns: 200, seed: 15 },
    );
    expect(csvRecords([['=1+1', '-5', "'x", '@a', '', undefined]])).toBe(`'=1+1,-5,''x,'@a,"",\r\n`);
    // Regression: csv-stringify stops quoting a lone CR once a record delimiter is named.
    expect(
      parseCsv(
        csvRecords([
          ['\rstart', 'a\nb'],
          ['x', 'y'],
        ]),
      ),
    ).toEqual([
      ['\rstart', 'a\nb'],
      ['x', 'y'],
    ]);
  });

  it('guards the untyped exports too: SQL results and the migration report', () => {
    expect(spreadsheetCells(csvRecords([['name'], ['=cmd|"/C calc"!A0'], ['+1']]))).toEqual([
      'name',
      '\'=cmd|"/C calc"!A0',
      "'+1",
    ]);
    const csv = toCsv({
      table: 'T',
      dottedAttributes: [
        {
          name: '@evil.x',
          items: 1,
          parentMissing: 1,
          sameAsNested: 0,
          differsFromNested: 0,
          sampleKeys: [],
        },
      ],
      dateAttributes: [],
    } as unknown as Parameters<typeof toCsv>[0]);
    // The last two columns (entity, detail) belong to the findings of older dynamoose releases.
    expect(csv.split('\r\n')[1]).toBe("dotted,'@evil.x,1,1,0,0,,,,,,,true,[],,");
  });

  it('reads a hand-made file: a BOM, a stray quote, a blank line, a short row', () => {
    expect(parseCsv('\uFEFFa,b\r\nx"y,\r\n\r\n"",z\r\nonly\r\n')).toEqual([
      ['a', 'b'],
      ['x"y', null],
      [null],
      ['', 'z'],
      ['only'],
    ]);
  });
});
