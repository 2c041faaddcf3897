import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { COLD_BLOCK_ROWS } from '../../src/main/sql/executor/cold-strings';
import {
  buildDictionary,
  buildScaledNumbers,
  type Dictionary,
  NOT_NUMBER,
  type ScaledNumbers,
} from '../../src/main/sql/executor/column-views';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { fromTagged, type Value } from '../../src/main/sql/values/value';

// Pages are sealed into a form per column as they arrive (codes for repeating strings, doubles
// for numbers, compressed text, compressed tagged values) and a column changes form when a value
// does not fit. Whatever the forms, every way of reading a column must give the values appended:
// the oracle is fromTagged of each item's own attribute, and the Dictionary and ScaledNumbers
// built from those values the way a plain column has them built.

function pagesOf(items: readonly Item[], pageSize: number): Item[][] {
  const pages: Item[][] = [];
  for (let start = 0; start < items.length; start += pageSize)
    pages.push(items.slice(start, start + pageSize));
  return pages;
}

/**
 * Pages as item objects, or as the response bytes the SQL fetch hands the table (read straight
 * into the columns by wire-columns.ts): both must read back the same.
 */
type Feed = 'items' | 'response bytes';
let feed: Feed = 'items';

function load(items: readonly Item[], pageSize = 997): ColumnarTable {
  const table = new ColumnarTable('T', ['pk']);
  for (const page of pagesOf(items, pageSize))
    if (feed === 'items') table.appendTaggedItems(page);
    else table.appendWirePage(Buffer.from(JSON.stringify({ Items: page })));
  return table;
}

function expectColumn(table: ColumnarTable, items: readonly Item[], name: string): void {
  const expected: Value[] = items.map((item) =>
    Object.hasOwn(item, name) ? fromTagged(item[name]!) : undefined,
  );
  const read = table.reader(name)!;
  expect(Array.from(expected, (_, i) => read(i))).toEqual(expected);
  // The same as built from the oracle's values the way a plain column has them built, up to
  // the numbering of codes (a coded column gives NULL a code of its own, read as 0).
  expect(groupsOf(table.dictionary(name))).toEqual(groupsOf(buildDictionary(expected, items.length)));
  expect(sumsOf(table.scaledNumbers(name))).toEqual(sumsOf(buildScaledNumbers(expected, items.length)));
  expect(table.column(name)).toEqual(expected);
}

/** Codes renumbered by first appearance (0 stays 0), checked to be under `size`. */
function groupsOf(dictionary: Dictionary | undefined): number[] | undefined {
  if (!dictionary) return undefined;
  expect(Math.max(0, ...dictionary.codes)).toBeLessThan(dictionary.size);
  const renumbered = new Map<number, number>([[0, 0]]);
  return Array.from(dictionary.codes, (code) => {
    if (!renumbered.has(code)) renumbered.set(code, renumbered.size);
    return renumbered.get(code)!;
  });
}

/** What SUM reads: the scale, and per row the integer, a value that is not a number, or none. */
function sumsOf(numbers: ScaledNumbers | undefined): unknown {
  if (!numbers) return undefined;
  const rows = Array.from(numbers.kind, (k, i) =>
    k === 1 ? numbers.scaled[i] : k === NOT_NUMBER ? 'NaN' : '-',
  );
  return { scale: numbers.scale, rows };
}

const rows = COLD_BLOCK_ROWS * 2 + 321;
const STATUSES = ['NEW', 'PAID', 'SHIPPED'];

function items(value: (i: number) => AttributeValue | undefined): Item[] {
  return Array.from({ length: rows }, (_, i) => {
    const item: Item = { pk: { S: `p${i}` } };
    const v = value(i);
    if (v !== undefined) item.v = v;
    return item;
  });
}

describe.each<Feed>(['items', 'response bytes'])(
  'columns sealed into their forms as pages arrive, fed %s',
  (fed) => {
    beforeEach(() => {
      feed = fed;
    });

    const cases: [string, (i: number) => AttributeValue | undefined][] = [
      [
        'repeating strings, NULL and missing',
        (i) => (i % 13 === 0 ? undefined : i % 17 === 0 ? { NULL: true } : { S: STATUSES[i % 3]! }),
      ],
      [
        'repeating strings, then a number two blocks in',
        (i) => (i === COLD_BLOCK_ROWS * 2 + 5 ? { N: '5' } : { S: STATUSES[i % 3]! }),
      ],
      [
        'strings that stop repeating (the codes overflow)',
        (i) => ({ S: i < 3000 ? `s${i % 7}` : `unique ${i} é😀` }),
      ],
      [
        'unique ASCII ids of 10 to 29 characters',
        (i) => ({ S: `ID#${String(i).padStart(7 + (i % 20), '0')}` }),
      ],
      [
        // Judged free of repeats on the first page (compressed), then repeating, with escapes.
        'strings unique on the first page, repeating after it',
        (i) => ({ S: i < 997 ? `first ${i}` : i % 5 === 0 ? 'say "hi"\n' : STATUSES[i % 3]! }),
      ],
      [
        'strings that stop repeating, with a NULL among them',
        (i) => (i === 10 ? { NULL: true } : { S: i < 3000 ? 'x' : `u${i}` }),
      ],
      [
        'more than 255 distinct strings (wider codes)',
        (i) => ({ S: `k${i % 300}${i >= COLD_BLOCK_ROWS ? '' : '-'}` }),
      ],
      [
        'numbers with NULL and missing',
        (i) =>
          i % 11 === 0
            ? undefined
            : i % 19 === 0
              ? { NULL: true }
              : { N: String(((i * 7919) % 100_000) / 100) },
      ],
      ['numbers whose scale grows late', (i) => ({ N: i === rows - 2 ? '0.125' : String(i) })],
      ['numbers past 15 decimals', (i) => ({ N: i === 9000 ? '0.1234567890123456' : '1.5' })],
      [
        'numbers, then a 38-digit decimal',
        (i) => ({ N: i === 8500 ? '12345678901234567890123456789012345678' : String(i) }),
      ],
      ['numbers, then a string', (i) => (i === 4100 ? { S: '12' } : { N: String(i) })],
      [
        'NULL only, then strings late',
        (i) => (i < 5000 ? (i % 2 ? { NULL: true } : undefined) : { S: STATUSES[i % 3]! }),
      ],
      [
        'a column that appears after two blocks',
        (i) => (i < COLD_BLOCK_ROWS * 2 + 7 ? undefined : { N: String(i % 5) }),
      ],
      [
        'lists, maps with names that are data, sets, binary, booleans',
        (i) =>
          [
            { L: [{ S: 'web' }, { N: '1.50' }, { NULL: true }] },
            { M: { __proto__: { S: 'p' }, constructor: { N: '2' }, 'a.b': { BOOL: false } } },
            { SS: ['a', 'b'] },
            { NS: ['1', '2.5'] },
            { B: 'AAEC' },
            { BS: ['AQ==', 'Ag=='] },
            { BOOL: true },
            { NULL: true },
            undefined,
          ][i % 9] as AttributeValue | undefined,
      ],
    ];

    it.each(cases)('read back exactly: %s', (_, value) => {
      const all = items(value);
      const table = load(all);
      expectColumn(table, all, 'v');
      expectColumn(table, all, 'pk');
      table.coolDown();
      table.coolDown();
      expectColumn(table, all, 'v');
    });

    // The users' names of the bench's one-table shape: on one item in ten, every value new for
    // the first half of the read and each met again in the second. Judged from its first values,
    // such a column looks unique and goes compressed, whatever its repeats later (deciding at
    // the read's end was tried and measured no better: docs/PERFORMANCE.md, "sqlfirst6"); a
    // column that is unique throughout goes compressed too. Either way every read is exact.
    const sparse =
      (distinct: number) =>
      (i: number): AttributeValue | undefined =>
        i % 10 === 0 ? { S: `Customer ${(i / 10) % distinct}` } : undefined;

    it.each([
      ['a sparse column whose values repeat only late', 400],
      ['a sparse column of unique values', rows],
    ])('%s reads back exactly after the read is over', (_, distinct) => {
      const all = items(sparse(distinct));
      const table = load(all);
      table.finish();
      if (distinct === rows) expect(table.codedStrings('v')).toBeUndefined();
      expectColumn(table, all, 'v');
      table.coolDown();
      table.coolDown();
      expectColumn(table, all, 'v');
    });

    it.each([400, rows])('group a sparse column of %i distinct values as the items do', (distinct) => {
      const all = items(sparse(distinct));
      const { rows: answer } = runLocal(
        "SELECT v, COUNT(*) AS n FROM T WHERE v LIKE 'Customer %' GROUP BY v ORDER BY v",
        [{ info: tableInfo('T', 'pk'), items: all }],
      );
      const counts = new Map<string, number>();
      for (const { v } of all) if (v && 'S' in v) counts.set(v.S, (counts.get(v.S) ?? 0) + 1);
      const expected = [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
      expect(answer.map(([v, n]) => [v, Number(n)])).toEqual(expected);
    });

    it('read back exactly whatever the page sizes and values', () => {
      const value = fc.oneof(
        fc.constant(undefined),
        fc.constant<AttributeValue>({ NULL: true }),
        fc.constantFrom('a', 'b', '', 'é').map((S): AttributeValue => ({ S })),
        fc.string().map((S): AttributeValue => ({ S })),
        fc.integer({ min: -1e6, max: 1e6 }).map((n): AttributeValue => ({ N: String(n / 100) })),
        fc.constant<AttributeValue>({ L: [{ S: 'x' }] }),
      );
      fc.assert(
        fc.property(
          fc.array(value, { maxLength: 600 }),
          fc.integer({ min: 1, max: 200 }),
          (values, pageSize) => {
            const all = values.map((v, i) => ({ pk: { S: `p${i}` }, ...(v === undefined ? {} : { v }) }));
            const table = load(all, pageSize);
            if (all.some((item) => item.v)) expectColumn(table, all, 'v');
            else expect(table.reader('v')).toBeUndefined();
          },
        ),
        { numRuns: 100 },
      );
    });

    it('answer a statement over coded, numeric and compressed columns as over the items', () => {
      const all = Array.from({ length: rows }, (_, i): Item => ({
        pk: { S: `p${i}` },
        status: i % 29 === 0 ? { NULL: true } : { S: STATUSES[i % 3]! },
        amount: { N: String(((i * 7919) % 10_000) / 100) },
        note: { S: `note ${i}` },
        tags: { L: [{ S: i % 2 ? 'a' : 'b' }] },
      }));
      const { rows: answer } = runLocal(
        "SELECT status, COUNT(*) AS n, SUM(amount) AS total, MAX(note) AS top FROM T WHERE tags[0] = 'a' GROUP BY status ORDER BY status",
        [{ info: tableInfo('T', 'pk'), items: all }],
      );
      const groups = new Map<string | null, { n: number; cents: number; top: string }>();
      all.forEach((item, i) => {
        if (i % 2 === 0) return;
        const status = 'S' in item.status! ? item.status.S : null;
        const g = groups.get(status) ?? { n: 0, cents: 0, top: '' };
        g.n += 1;
        g.cents += (i * 7919) % 10_000;
        if (`note ${i}` > g.top) g.top = `note ${i}`;
        groups.set(status, g);
      });
      const expected = [...groups]
        .sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1))
        .map(([status, g]) => [status, g.n, g.cents / 100, g.top]);
      expect(answer.map(([status, n, total, top]) => [status, Number(n), Number(total), top])).toEqual(
        expected,
      );
    });
  },
);
