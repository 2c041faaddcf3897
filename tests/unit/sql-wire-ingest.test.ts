import { describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { splitWirePage } from '../../src/main/dynamo/query/wire-page';
import { WireFormatError } from '../../src/main/resultsets/wire-cursor';
import { COLD_BLOCK_ROWS } from '../../src/main/sql/executor/cold-strings';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { everyTypeItem } from '../fixtures/items-every-type';
import { fromTagged, type Value } from '../../src/main/sql/values/value';

// The SQL fetch hands a page's response bytes to the table, which reads them straight into its
// columns (wire-columns.ts). The oracle is JSON.parse of the same text and fromTagged of each
// item's own attribute: what the columns held when pages were parsed into objects first.

function wireTable(pages: readonly string[], max?: number): ColumnarTable {
  const table = new ColumnarTable('T', ['pk']);
  // The fetch's way: the splitter leaves each page's Items to the table's own walk of the bytes.
  for (const page of pages)
    splitWirePage(Buffer.from(page), (body, from) => table.readWireItems(body, from, max));
  return table;
}

function expectColumns(table: ColumnarTable, pages: readonly string[]): void {
  const items = pages.flatMap((page) => (JSON.parse(page) as { Items: Item[] }).Items);
  const names = new Set(items.flatMap((item) => Object.keys(item)));
  expect(new Set(table.names())).toEqual(names);
  expect(table.rowCount).toBe(items.length);
  for (const name of names) {
    const expected: Value[] = items.map((item) =>
      Object.hasOwn(item, name) ? fromTagged(item[name]!) : undefined,
    );
    const read = table.reader(name)!;
    expect(
      Array.from(expected, (_, i) => read(i)),
      name,
    ).toEqual(expected);
    expect(table.column(name), name).toEqual(expected);
  }
}

const page = (items: string[]): string => `{"Count":${items.length},"Items":[${items.join(',')}]}`;

describe('a page read from its response bytes into the columns', () => {
  it('keeps names and values that are data: __proto__, constructor, escapes, non-ASCII', () => {
    const pages = [
      page([
        '{"pk":{"S":"a"},"__proto__":{"S":"p"},"constructor":{"N":"2"},"a.b":{"S":"tab\\there \\"q\\" \\u00e9"}}',
        '{"pk":{"S":"b"},"__proto__":{"M":{"__proto__":{"S":"x"},"constructor":{"L":[{"N":"1"}]}}},"a.b":{"S":"ø😀 plain"}}',
        '{"pk":{"S":"c"},"na\\u006de":{"S":"escaped name"},"constructor":{"N":"-0"}}',
      ]),
      // Whitespace DynamoDB does not send, but JSON allows.
      page(['{ "pk" : { "S" : "d" } , "constructor" : {"N": "12.50"}, "__proto__": {"NULL": true} }']),
    ];
    const table = wireTable(pages);
    expectColumns(table, pages);
    expect(table.reader('name')!(2)).toBe('escaped name');
  });

  it('reads numbers as DynamoDB spells them exactly, and long ones as decimals', () => {
    const numbers = ['0', '-0', '1', '-1.5', '0.1', '123456789012345', '99999999999999.9', '0.000000000001'];
    const long = ['12345678901234567890123456789012345678', '0.1234567890123456', '1E+5', '-1e-3'];
    const pages = [
      page(numbers.map((n, i) => `{"pk":{"S":"n${i}"},"v":{"N":"${n}"}}`)),
      page(long.map((n, i) => `{"pk":{"S":"l${i}"},"v":{"N":"${n}"}}`)),
    ];
    const table = wireTable(pages);
    expectColumns(table, pages);
    expect(table.reader('v')!(2)).toBe(1);
    expect(Object.is(table.reader('v')!(1), 0)).toBe(true);
  });

  it('moves a column on when a value does not fit its form, within a page and across pages', () => {
    const rows = COLD_BLOCK_ROWS + 500;
    const values = (i: number): string =>
      i === 700
        ? '{"N":"7"}'
        : i === 701
          ? '{"NULL":true}'
          : i === rows - 3
            ? '{"L":[{"S":"x"}]}'
            : `{"S":"${['NEW', 'PAID'][i % 2]}"}`;
    const pages: string[] = [];
    for (let start = 0; start < rows; start += 1000) {
      const items: string[] = [];
      for (let i = start; i < Math.min(rows, start + 1000); i++)
        items.push(
          `{"pk":{"S":"p${i}"},"v":${values(i)},"n":{"N":"${i % 50}"},` +
            `"text":{"S":"${i % 3 === 0 ? 'é' : ''}${'lorem ipsum '.repeat(8)}${i}"},` +
            `"mixed":${i % 4 === 0 ? '{"BOOL":true}' : `{"S":"m${i}"}`}}`,
        );
      pages.push(page(items));
    }
    const table = wireTable(pages);
    expectColumns(table, pages);
    // Free text with non-ASCII rows, kept compressed: an entity view's prefix read from it.
    const mask = table.prefixMask('text', 'élorem')!;
    expect(mask.reduce((sum, bit) => sum + bit, 0)).toBe(Math.ceil(rows / 3));
  });

  it('reads back the same after the read is over (part blocks compressed), and takes pages after it', () => {
    const text = (i: number) =>
      `{"pk":{"S":"p${i}"},"note":{"S":"${'free text '.repeat(10)}${i}"},"tags":{"L":[{"S":"t${i % 3}"}]}}`;
    const pageOf = (from: number, to: number) =>
      page(Array.from({ length: to - from }, (_, k) => text(from + k)));
    const pages = [pageOf(0, 1000), pageOf(1000, COLD_BLOCK_ROWS + 700)];
    const table = wireTable(pages);
    table.finish();
    expectColumns(table, pages);
    const later = pageOf(COLD_BLOCK_ROWS + 700, COLD_BLOCK_ROWS + 900);
    table.appendWirePage(Buffer.from(later));
    table.finish();
    expectColumns(table, [...pages, later]);
    expect(table.prefixMask('note', 'free text free')!.every((bit) => bit === 1)).toBe(true);
  });

  it('takes at most the items the read has room for', () => {
    const pages = [page(['{"pk":{"S":"a"}}', '{"pk":{"S":"b"}}', '{"pk":{"S":"c"}}'])];
    const table = wireTable(pages, 2);
    expect(table.rowCount).toBe(2);
    expect(table.column('pk')).toEqual(['a', 'b']);
  });

  it('refuses an item naming an attribute twice, with a sentence', () => {
    const pages = [page(['{"pk":{"S":"a"},"v":{"S":"1"},"v":{"S":"2"}}'])];
    expect(() => wireTable(pages)).toThrow(/names an attribute twice/);
  });

  it('reads nested values, sets and binary as their tagged JSON', () => {
    const values: AttributeValue[] = [
      { SS: ['a', 'b'] },
      { NS: ['1', '2.5'] },
      { B: 'AAEC' },
      { BS: ['AQ==', 'Ag=='] },
      { BOOL: false },
      { M: { 'a.b': { L: [{ NULL: true }, { S: '[0]' }] } } },
    ];
    const pages = [page(values.map((v, i) => JSON.stringify({ pk: { S: `p${i}` }, v })))];
    expectColumns(wireTable(pages), pages);
  });

  it('codes repeating strings from their bytes exactly: cycles, look-alikes, long ones, escapes', () => {
    // Twelve statuses of one length differing in one byte cycle past the slots kept; long strings
    // are not kept; "\u0041" and "A" are one string; ids that never repeat make the column
    // stop looking, and the strings after that still code right.
    const value = (i: number): string => {
      if (i < 1500) return `{"S":"u${String(i % 4 === 3 ? i - 1 : i).padStart(7, '0')}"}`;
      return i % 7 === 0 ? '{"S":"\\u0041"}' : i % 5 === 0 ? '{"S":"A"}' : `{"S":"u000000${i % 3}"}`;
    };
    const pages: string[] = [];
    for (let start = 0; start < 3000; start += 1000) {
      const items: string[] = [];
      for (let i = start; i < start + 1000; i++)
        items.push(
          `{"pk":{"S":"p${i}"},"status":{"S":"st-${String(i % 12).padStart(2, '0')}"},` +
            `"long":{"S":"${'x'.repeat(40)}${i % 3}"},"id":${value(i)},"near":{"S":"ab${i % 2 ? 'c' : 'd'}"}}`,
        );
      pages.push(page(items));
    }
    const table = wireTable(pages);
    expectColumns(table, pages);
    expect(table.reader('id')!(1505)).toBe('A');
    expect(table.codedStrings('id'), 'id stays coded').toBeDefined();
  });

  it('reads the Items where they stand in the body, whatever members come before or after them', () => {
    const items: Item[] = Array.from({ length: 40 }, (_, i) => everyTypeItem(`every#${i}`));
    items.push(JSON.parse('{"pk":{"S":"x"},"__proto__":{"S":"p"}}') as Item);
    const members: [string, unknown][] = [
      ['Count', items.length],
      ['ScannedCount', items.length + 3],
      ['LastEvaluatedKey', { pk: { S: 'k"]}1' } }],
      ['ConsumedCapacity', { TableName: 'T', CapacityUnits: 1.5 }],
    ];
    for (let at = 0; at <= members.length; at++)
      for (const indent of [undefined, 2]) {
        const all: [string, unknown][] = [...members];
        all.splice(at, 0, ['Items', items]);
        const text = `{${all.map(([n, v]) => `${JSON.stringify(n)}:${JSON.stringify(v, null, indent)}`).join(indent ? ' ,\n ' : ',')}}`;
        const table = new ColumnarTable('T', ['pk']);
        const { rest, items: read } = splitWirePage(Buffer.from(text), (body, from) =>
          table.readWireItems(body, from),
        );
        expect(read.isTaken).toBe(true);
        expect(read.length).toBe(items.length);
        const { Items: _, ...others } = JSON.parse(text) as Record<string, unknown>;
        expect({ ...rest }).toEqual(others);
        expectColumns(table, [text]);
      }
  });

  it('skips the items past the room it has and still reads the members after them', () => {
    const text = `{"Items":[{"pk":{"S":"a"}},{"pk":{"S":"b"}},{"pk":{"S":"c"},"m":{"M":{"x":{"L":[]}}}}],"LastEvaluatedKey":{"pk":{"S":"c"}},"Count":3}`;
    const table = new ColumnarTable('T', ['pk']);
    const kept: number[] = [];
    const { rest, items } = splitWirePage(Buffer.from(text), (body, from) => {
      const read = table.readWireItems(body, from, 1);
      kept.push(read.kept);
      return read;
    });
    expect(kept).toEqual([1]);
    expect(items.length).toBe(3);
    expect({ ...rest }).toEqual({ LastEvaluatedKey: { pk: { S: 'c' } }, Count: 3 });
    expect(table.column('pk')).toEqual(['a']);
    expect(table.names()).toEqual(['pk']);
  });

  it('refuses a body naming Items twice once a reader kept the first, and a body that is not a page', () => {
    const table = new ColumnarTable('T', ['pk']);
    const reader = (body: Buffer, from: number) => table.readWireItems(body, from);
    expect(() =>
      splitWirePage(Buffer.from('{"Items":[{"pk":{"S":"a"}}],"Items":[{"pk":{"S":"b"}}]}'), reader),
    ).toThrow(/names Items twice/);
    for (const text of ['{"Items":[1]}', '{"Items":[{"pk":{"S":"a"}},]}', '{"Items":{"pk":{"S":"a"}}}'])
      expect(() => splitWirePage(Buffer.from(text), reader), text).toThrow(/at byte \d+/);
  });

  it('calls a malformed escape in a name or a value an unreadable answer, not a defect', () => {
    for (const item of ['{"pk":{"S":"a\\x"}}', '{"p\\q":{"S":"a"}}', '{"pk":{"S":"a"},"n":{"S":"cut \\u1"}}'])
      expect(() => wireTable([page([item])]), item).toThrow(WireFormatError);
  });
});
