import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { TableInfo } from '../../src/shared/sql/catalog';
import { bindStatement } from '../../src/main/sql/binder/bind-query';
import { resolveTable } from '../../src/main/sql/catalog/resolve-table';
import { executeQuery } from '../../src/main/sql/executor/execute';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { parseStatement } from '../../src/main/sql/parser/parser';
import { isNum, numToString } from '../../src/main/sql/values/decimal';
import { Random, sqlNumber, sqlText } from '../support/sql-diff/data';

/**
 * A join's key numbers from a coded column's distinct strings (operators/join-keys.ts
 * `numberCoded`): each distinct string numbered once, each row's code looked up, where a column
 * in any other form has every row hashed. Both forms must give the hash join's equality on
 * every side: coded × coded (repeating keys on both sides), coded × compressed (a unique key
 * column, which is stored compressed), NULL and missing keys, duplicates on both sides, sides
 * with no rows, LEFT JOIN; DuckDB over the same rows is the oracle. Keys of mixed types (the
 * string "7" and the number 7 never join; 1 and 1.0 do), which DuckDB's typed columns cannot
 * hold, are checked against the general hash join, reached by a key that is an expression.
 */
const infos: TableInfo[] = [tableInfo('L', 'lid'), tableInfo('R', 'rid')];

function load(items: Item[], info: TableInfo): ColumnarTable {
  const table = new ColumnarTable(info.name, [info.keys.partitionKey.name]);
  for (let i = 0; i < items.length; i += 1000) table.appendTaggedItems(items.slice(i, i + 1000));
  table.finish();
  return table;
}

/** Decimal text without trailing zeros (DuckDB's DECIMAL(18,2) prints 1.50, DynoTable 1.5). */
const decimal = (t: string): string => {
  const trimmed = t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t;
  return trimmed === '-0' ? '0' : trimmed;
};

const canon = (v: unknown): string => {
  if (v === null || v === undefined) return 'NULL';
  if (isNum(v)) return decimal(numToString(v));
  return typeof v === 'string' ? v : JSON.stringify(v);
};

function engine(sql: string, tables: Map<string, ColumnarTable>): string[] {
  const bound = bindStatement(parseStatement(sql), {
    text: sql,
    resolveTable: (name, schema, span) => resolveTable({ tables: infos, views: [] }, name, schema, span, sql),
  });
  const result = executeQuery(bound, {
    text: sql,
    fn: { nowMs: 0 },
    tableFor: (binding) => tables.get((binding.source as { table: TableInfo }).table.name)!,
    warn: () => undefined,
  });
  return Array.from({ length: result.length }, (_, i) => result.row(i).map(canon).join(' | ')).sort();
}

const key = (r: Random, keys: readonly string[]): Item['k'] | undefined => {
  const roll = r.next();
  if (roll < 0.04) return { NULL: true };
  if (roll < 0.08) return undefined;
  return { S: r.pick(keys) };
};

function side(prefix: string, rows: number, keyOf: (i: number) => Item['k'] | undefined, r: Random): Item[] {
  return Array.from({ length: rows }, (_, i) => {
    const item: Item = { [`${prefix}id`]: { S: `${prefix}${i}` }, g: { S: r.pick(['x', 'y', 'z']) } };
    const k = keyOf(i);
    if (k) item.k = k;
    if (r.next() > 0.05) item.v = { N: String(r.int(-500, 5000) / 100) };
    return item;
  });
}

interface Case {
  name: string;
  left: Item[];
  right: Item[];
}

function cases(): Case[] {
  const r = new Random(20_261_207);
  const few = Array.from({ length: 40 }, (_, i) => `k${i}`);
  const ids = Array.from({ length: 5000 }, (_, i) => `id${String(i).padStart(5, '0')}`);
  return [
    {
      name: 'coded × coded: repeating keys, duplicates on both sides, NULL and missing',
      left: side('l', 3000, () => key(r, few), r),
      right: side('r', 300, () => key(r, [...few.slice(5), 'only-right']), r),
    },
    {
      name: 'coded × compressed: a unique key column on one side, dangling keys on the other',
      left: side('l', 8000, () => key(r, [...ids.slice(0, 1500), 'dangling', 'gone']), r),
      right: side('r', 5000, (i) => (i % 97 === 0 ? { NULL: true } : { S: ids[i]! }), r),
    },
    {
      name: 'one side with no key at all',
      left: side('l', 500, () => key(r, few), r),
      right: side('r', 50, () => undefined, r),
    },
  ];
}

const STATEMENTS = [
  'SELECT l.lid, r.rid FROM L l JOIN R r ON l.k = r.k',
  'SELECT l.lid, r.rid FROM L l LEFT JOIN R r ON l.k = r.k',
  'SELECT r.g, COUNT(*), SUM(l.v) FROM L l JOIN R r ON l.k = r.k GROUP BY r.g',
  'SELECT r.g, COUNT(*), SUM(l.v) FROM L l LEFT JOIN R r ON l.k = r.k GROUP BY r.g',
  'SELECT l.g, COUNT(*), COUNT(r.v) FROM L l JOIN R r ON l.k = r.k GROUP BY l.g',
  "SELECT l.lid, r.rid FROM L l JOIN R r ON l.k = r.k WHERE r.g = 'none'",
  'SELECT a.rid, b.rid FROM R a JOIN R b ON a.k = b.k WHERE a.rid < b.rid',
];

let connection: DuckDBConnection;
beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => connection.closeSync());

async function loadDuck(c: Case): Promise<void> {
  for (const [name, items, id] of [
    ['L', c.left, 'lid'],
    ['R', c.right, 'rid'],
  ] as const) {
    await connection.run(
      `CREATE OR REPLACE TABLE ${name} (${id} VARCHAR, k VARCHAR, g VARCHAR, v DECIMAL(18,2))`,
    );
    const values = items.map(
      (item) =>
        `(${sqlText(item, id)}, ${sqlText(item, 'k')}, ${sqlText(item, 'g')}, ${sqlNumber(item, 'v')})`,
    );
    await connection.run(`INSERT INTO ${name} VALUES ${values.join(', ')}`);
  }
}

async function duck(sql: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(sql);
  return reader
    .getRowsJson()
    .map((row) =>
      row
        .map((v) => {
          const text = typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);
          return v === null ? 'NULL' : /^-?\d+(\.\d+)?$/.test(text) ? decimal(text) : text;
        })
        .join(' | '),
    )
    .sort();
}

describe('join keys numbered from dictionary codes (DuckDB as the oracle)', () => {
  for (const c of cases()) {
    it(`agrees on ${c.name}`, async () => {
      const left = load(c.left, infos[0]!);
      const right = load(c.right, infos[1]!);
      const tables = new Map([
        ['L', left],
        ['R', right],
      ]);
      // The data is in the forms this file is about: the left key coded, the right one coded or
      // (unique ids) compressed.
      expect(left.codedStrings('k')).toBeDefined();
      await loadDuck(c);
      for (const sql of STATEMENTS) expect(engine(sql, tables), sql).toEqual(await duck(sql));
    }, 60_000);
  }
});

describe('join keys of mixed types: the numbered join against the general hash join', () => {
  const r = new Random(7);
  const strings = ['7', '8', '1', '1.0', 'a', '\u0000s7', '\u0000n7'];
  // The left key coded strings (some the digits of a right-side number); the right key numbers
  // of different scales that are equal (1, 1.0, 1.00), strings, NULL and missing.
  const left = side('l', 2000, () => key(r, strings), r);
  const right = side(
    'r',
    400,
    (i): Item['k'] | undefined =>
      (
        [
          { N: '7' },
          { N: '1' },
          { N: '1.0' },
          { N: '1.00' },
          { S: '7' },
          { S: 'a' },
          { NULL: true },
          undefined,
        ] as const
      )[i % 8],
    r,
  );
  const numbers = side('n', 300, (i) => [{ N: '1' }, { N: '1.0' }, { N: '7.00' }, { N: '8' }][i % 4], r);
  const tables = new Map([
    ['L', load(left, infos[0]!)],
    ['R', load(right, infos[1]!)],
  ]);
  // A key that is an expression (`COALESCE(k, NULL)` is k) is not a bare column: the hash join.
  const general = (sql: string): string => sql.replace('ON l.k = r.k', 'ON COALESCE(l.k, NULL) = r.k');

  for (const sql of STATEMENTS.slice(0, 5)) {
    it(`agrees on ${sql}`, () => {
      expect(tables.get('L')!.codedStrings('k')).toBeDefined();
      const numbered = engine(sql, tables);
      expect(numbered).toEqual(engine(general(sql), tables));
    }, 30_000);
  }

  it('joins 1 to 1.0 and 1.00, and the string "7" only to the string "7"', () => {
    const withNumbers = new Map([
      [
        'L',
        load(
          numbers.map((item) => ({ ...item, lid: item.nid! })),
          infos[0]!,
        ),
      ],
      ['R', tables.get('R')!],
    ]);
    const sql = 'SELECT l.k, r.k, COUNT(*) FROM L l JOIN R r ON l.k = r.k GROUP BY l.k, r.k';
    expect(engine(sql, withNumbers)).toEqual(engine(general(sql), withNumbers));
    const sevens = engine("SELECT l.lid, r.rid FROM L l JOIN R r ON l.k = r.k WHERE l.k = '7'", tables);
    const textSevens = right.filter((item) => item.k && 'S' in item.k && item.k.S === '7').length;
    const leftSevens = left.filter((item) => item.k && 'S' in item.k && item.k.S === '7').length;
    expect(sevens).toHaveLength(textSevens * leftSevens);
  }, 30_000);
});
