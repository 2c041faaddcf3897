import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../src/shared/sql/catalog';
import * as averages from '../../src/main/sql/executor/operators/correlated-average';
import { runLocal, runOver, tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { PreparedStatements } from '../../src/main/sql/prepared-statements';
import { comparableRows, duckdbWith, expectSameRows } from '../support/duckdb-oracle';

vi.mock('../../src/main/sql/executor/operators/correlated-average', async (original) => {
  const actual = await original<typeof averages>();
  return { ...actual, filterByAverages: vi.fn(actual.filterByAverages) };
});

/** How many conditions the loops answered since the last reset (the rest went to the general path). */
function answeredByLoops(): number {
  const spy = vi.mocked(averages.filterByAverages);
  return spy.mock.calls.reduce((sum, call, i) => {
    const result = spy.mock.results[i];
    return result?.type === 'return' ? sum + call[1].length - result.value.rest.length : sum;
  }, 0);
}
beforeEach(() => {
  vi.mocked(averages.filterByAverages).mockClear();
});

/**
 * `x op (SELECT AVG(p.y) FROM t p WHERE p.k = o.k)` compared as `x · count op sum` on scaled
 * integers per key code (operators/correlated-average.ts), on the data that breaks such a path:
 * rows exactly at their group's average (ties), NULL and missing values and keys, keys whose
 * values are all NULL, negative numbers, groups of one, and the data it must refuse (text among
 * the numbers, numbers too long for a double, sums past 2^53, two scales). DuckDB is the oracle
 * where it holds the rows; where it cannot (text among numbers), the same statement with the
 * answer written as an expression (`AVG(…) + 0`), which takes the general path, is.
 */
const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string): AttributeValue => ({ N: n });

function ordersOf(amountOf: (n: number) => AttributeValue | undefined): Item[] {
  return Array.from({ length: 120 }, (_, k) => {
    const n = k + 1;
    // u0 has one order, u1 two, ... : groups of one and of many.
    const user = Math.floor(Math.sqrt(n * 2));
    const item: Item = {
      PK: S(`USER#u${user % 13}`),
      SK: S(n % 9 === 0 ? `USER#u${user % 13}` : `ORDER#${String(n).padStart(3, '0')}`),
      orderId: S(`o${String(n).padStart(3, '0')}`),
      userId: S(`u${user % 13}`),
    };
    if (n % 17 === 0) delete item.userId;
    if (n % 23 === 0) item.userId = { NULL: true };
    const amount = amountOf(n);
    if (amount) item.amount = amount;
    // A second number column of the same scale, and one of another scale.
    item.price = N(String(((n * 37) % 500) / 100));
    item.weight = N(String(((n * 13) % 97) / 1000));
    return item;
  });
}

// u12's amounts are all NULL; every 5th row of a group sits on a repeated value (ties with
// the average where a group's values are equal), negatives, two decimals, NULL and missing.
const amounts = ordersOf((n) => {
  const user = Math.floor(Math.sqrt(n * 2)) % 13;
  if (user === 12 || n % 19 === 0) return { NULL: true };
  if (n % 13 === 0) return undefined;
  if (user === 3 || n % 5 === 0) return N('12.5');
  return N(String((((n * 7919) % 9000) - 3000) / 100));
});
// 20+ digit numbers: no scaled integers, the general path.
const wide = ordersOf((n) => N(`${(n * 7919) % 97}12345678901234567.${n % 7}`));
// Near 2^53 as scaled integers: sums and products past what a double holds exactly.
const huge = ordersOf((n) => N(`${90071992547409 + ((n * 31) % 7)}.${n % 10}1`));
// Numbers and text in one column.
const mixed = ordersOf((n) => (n % 7 === 0 ? S(`t${n % 3}`) : N(String((n * 31) % 17))));

const views: EntityView[] = [
  {
    name: 'app_orders',
    table: 'orders',
    conditions: [{ attribute: 'SK', op: 'begins_with', values: [S('ORDER#')] }],
    source: 'detected',
  },
];
const run = (items: Item[], sql: string) =>
  runLocal(sql, [{ info: tableInfo('orders', 'PK', 'SK'), items }], views).rows;

const columns = {
  orderId: 'VARCHAR',
  SK: 'VARCHAR',
  userId: 'VARCHAR',
  amount: 'DECIMAL(38,4)',
  price: 'DECIMAL(38,4)',
  weight: 'DECIMAL(38,4)',
} as const;
const duckOf = (items: Item[]) => duckdbWith([{ name: 'orders', columns, items }]);

const above = (op: string, x = 'o.amount', y = 'p.amount') =>
  `SELECT o.orderId FROM orders o WHERE ${x} ${op} (SELECT AVG(${y}) FROM orders p WHERE p.userId = o.userId) ORDER BY o.orderId`;

let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await duckOf(amounts);
});

describe('a correlated comparison with a group average, against DuckDB', () => {
  it.each(['>', '>=', '<', '<=', '=', '<>'])(
    'x %s AVG, with ties, NULLs, negatives and groups of one',
    async (op) => {
      await expectSameRows(run(amounts, above(op)), duck, above(op));
    },
  );

  it('the average on the left, and another column of the same scale on the outer side', async () => {
    const flipped =
      'SELECT o.orderId FROM orders o WHERE (SELECT AVG(p.amount) FROM orders p WHERE o.userId = p.userId) <= o.amount ORDER BY o.orderId';
    await expectSameRows(run(amounts, flipped), duck, flipped);
    await expectSameRows(run(amounts, above('>', 'o.price')), duck, above('>', 'o.price'));
  });

  it('ties: a row exactly at its group average is neither above nor below it', () => {
    // u3's amounts are all 12.5: every one equals the average.
    const u3 = (op: string) =>
      run(amounts, above(op).replace('ORDER BY', "AND o.userId = 'u3' ORDER BY")).length;
    expect(u3('=')).toBeGreaterThan(1);
    expect(u3('>')).toBe(0);
    expect(u3('<')).toBe(0);
  });

  it('an entity view on both sides, counted', async () => {
    const sql =
      'SELECT COUNT(*) AS n FROM app_orders o WHERE o.amount > (SELECT AVG(p.amount) FROM app_orders p WHERE p.userId = o.userId)';
    const duckSql =
      "SELECT COUNT(*) AS n FROM orders o WHERE starts_with(o.SK, 'ORDER#') AND o.amount > (SELECT AVG(p.amount) FROM orders p WHERE starts_with(p.SK, 'ORDER#') AND p.userId = o.userId)";
    await expectSameRows(run(amounts, sql), duck, duckSql);
  });

  it('a subquery with a condition of its own, beside another outer condition', async () => {
    const sql =
      'SELECT o.orderId FROM orders o WHERE o.amount > 0 AND o.amount > (SELECT AVG(p.amount) FROM orders p WHERE p.userId = o.userId AND p.amount < 40) ORDER BY o.orderId';
    await expectSameRows(run(amounts, sql), duck, sql);
  });

  it('refuses what it cannot answer exactly: two scales, long numbers, sums past 2^53', async () => {
    await expectSameRows(run(amounts, above('>', 'o.weight')), duck, above('>', 'o.weight'));
    // DuckDB's AVG of a DECIMAL is a DOUBLE, which cannot hold these averages: its oracle is the
    // exact decimal form, x · COUNT op SUM (a key with no numbers: 0 op NULL, which drops it).
    const exact = (op: string) =>
      `SELECT o.orderId FROM orders o WHERE o.amount * (SELECT COUNT(p.amount) FROM orders p WHERE p.userId = o.userId) ${op} (SELECT SUM(p.amount) FROM orders p WHERE p.userId = o.userId) ORDER BY o.orderId`;
    for (const items of [wide, huge]) {
      const oracle = await duckOf(items);
      for (const op of ['>', '=', '<']) await expectSameRows(run(items, above(op)), oracle, exact(op));
    }
  });

  it("over a join: the rows kept are the frame's, each with its own partner", async () => {
    const sql = (op: string) =>
      `SELECT o.orderId, q.price FROM orders o JOIN orders q ON q.orderId = o.orderId WHERE o.amount ${op} (SELECT AVG(p.amount) FROM orders p WHERE p.userId = o.userId) ORDER BY o.orderId`;
    for (const op of ['>', '<=', '<>']) await expectSameRows(run(amounts, sql(op)), duck, sql(op));
  });

  it('a key of 400 values, then one of 13: no group of the first statement left in the second', async () => {
    // Six decimals, 400 users of 1 to 3 orders each (many groups of one), then the 13 users of
    // `amounts`: the per-key tallies are reused between statements and must start empty.
    const many: Item[] = Array.from({ length: 900 }, (_, k) => ({
      PK: S(`USER#m${k % 400}`),
      SK: S(`ORDER#${String(k).padStart(4, '0')}`),
      orderId: S(`m${String(k).padStart(4, '0')}`),
      userId: S(`m${(k * 7) % 400}`),
      amount: N(`${(k * 7919) % 1000}.${String((k * 104729) % 1_000_000).padStart(6, '0')}`),
    }));
    const duckMany = await duckOf(many);
    for (const op of ['>', '>=', '=']) {
      await expectSameRows(run(many, above(op)), duckMany, above(op));
      await expectSameRows(run(amounts, above(op)), duck, above(op));
    }
  });

  it('a key named __proto__ and amounts named constructor, with groups of one, ties and NULLs', async () => {
    // Object.fromEntries defines `__proto__` as an own attribute, as an item read from the wire has.
    const named = amounts.map((item, k): Item => {
      const key = k % 6 === 0 ? S(`one${k}`) : item.userId;
      const entries: [string, AttributeValue | undefined][] = [
        ['orderId', item.orderId],
        ['__proto__', key],
        ['constructor', item.amount],
      ];
      return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as Item;
    });
    const duckNamed = await duckdbWith([
      {
        name: 'orders',
        columns: { orderId: 'VARCHAR', ['__proto__']: 'VARCHAR', constructor: 'DECIMAL(38,4)' } as const,
        items: named,
      },
    ]);
    for (const op of ['>', '<', '=']) {
      const sql = `SELECT o.orderId FROM orders o WHERE o."constructor" ${op} (SELECT AVG(p."constructor") FROM orders p WHERE p."__proto__" = o."__proto__") ORDER BY o.orderId`;
      await expectSameRows(
        runLocal(sql, [{ info: tableInfo('orders', 'orderId'), items: named }]).rows,
        duckNamed,
        sql,
      );
    }
  });

  it('text among the numbers: the same answer as the general path, and the same warning', () => {
    const fast = runLocal(above('>'), [{ info: tableInfo('orders', 'PK', 'SK'), items: mixed }], views);
    const general = runLocal(above('>').replace('AVG(p.amount)', 'AVG(p.amount) + 0'), [
      { info: tableInfo('orders', 'PK', 'SK'), items: mixed },
    ]);
    expect(fast.rows.length).toBeGreaterThan(0);
    expect(comparableRows(fast.rows)).toEqual(comparableRows(general.rows));
    expect(fast.warnings).toEqual(general.warnings);
  });
});

describe('the loops: lists kept with the table, exactness decided per column', () => {
  const viewCount =
    'SELECT COUNT(*) AS n FROM app_orders o WHERE o.amount > (SELECT AVG(p.amount) FROM app_orders p WHERE p.userId = o.userId)';
  const viewCountDuck =
    "SELECT COUNT(*) AS n FROM orders o WHERE starts_with(o.SK, 'ORDER#') AND o.amount > (SELECT AVG(p.amount) FROM orders p WHERE starts_with(p.SK, 'ORDER#') AND p.userId = o.userId)";

  it('answer again after rows are appended, from lists and forms renewed with them', async () => {
    // The table is held between statements, as the fetch cache holds it, and the statements are
    // prepared: an entity view's rows and the codes read within them, every row of the table,
    // the columns' NaN forms, all kept after the first statement, must follow the new rows.
    const table = new ColumnarTable('orders', ['PK', 'SK']);
    const data = new Map([['orders', table]]);
    const statements = new PreparedStatements();
    const infos = [tableInfo('orders', 'PK', 'SK')];
    // The second page: a new user, a tie with u3's 12.5s, a NULL amount, a bigger amount for u1.
    const more: Item[] = [
      ...amounts.slice(60),
      ...['12.5', '7.25', '7.75'].map((amount, k) => ({
        PK: S('USER#u3'),
        SK: S(`ORDER#n${k}`),
        orderId: S(`n${k}`),
        userId: S(k === 0 ? 'u3' : 'new'),
        amount: N(amount),
      })),
      { PK: S('USER#u1'), SK: S('ORDER#n9'), orderId: S('n9'), userId: S('u1'), amount: { NULL: true } },
      { PK: S('USER#u1'), SK: S('ORDER#n8'), orderId: S('n8'), userId: S('u1'), amount: N('99.99') },
    ];
    const pages = [amounts.slice(0, 60), more];
    const held: Item[] = [];
    for (const page of pages) {
      table.appendTaggedItems(page);
      held.push(...page);
      const oracle = await duckOf(held);
      for (const [sql, duckSql] of [
        [viewCount, viewCountDuck],
        [above('>'), above('>')],
        [above('<='), above('<=')],
      ] as const)
        for (let run = 0; run < 2; run++) {
          vi.mocked(averages.filterByAverages).mockClear();
          await expectSameRows(runOver(sql, infos, data, views, 0, statements).rows, oracle, duckSql);
          expect(answeredByLoops(), sql).toBe(1);
        }
    }
  });

  it('amounts past 2^53 cents fall back to the general path; just under, the loops answer exactly', async () => {
    const exact = (op: string) =>
      `SELECT o.orderId FROM orders o WHERE o.amount * (SELECT COUNT(p.amount) FROM orders p WHERE p.userId = o.userId) ${op} (SELECT SUM(p.amount) FROM orders p WHERE p.userId = o.userId) ORDER BY o.orderId`;
    // 120 rows of up to 3.3e13 cents: every sum of them under 4e15, so the loops may answer, and
    // doubles still tell apart amounts one cent apart at that size.
    const large = ordersOf((n) =>
      n % 11 === 0 ? undefined : N(`${330000000000 - (n % 4)}.${n % 2 === 0 ? '25' : '75'}`),
    );
    const oracle = await duckOf(large);
    for (const op of ['>', '<=', '<>']) {
      vi.mocked(averages.filterByAverages).mockClear();
      await expectSameRows(run(large, above(op)), oracle, exact(op));
      expect(answeredByLoops()).toBe(1);
    }
    const hugeOracle = await duckOf(huge);
    for (const op of ['>', '=', '<']) {
      vi.mocked(averages.filterByAverages).mockClear();
      await expectSameRows(run(huge, above(op)), hugeOracle, exact(op));
      expect(answeredByLoops()).toBe(0);
    }
  });

  it('text in a row the statement does not read: the general path answers, as DuckDB without it', async () => {
    // The users' items (outside app_orders) hold text in `amount`: the column is decided as a
    // whole, so the loops leave it to the general path, which never reads those rows.
    const isUser = (item: Item) => (item.SK as { S: string }).S.startsWith('USER#');
    const withText = amounts.map((item) => (isUser(item) ? { ...item, amount: S('n/a') } : item));
    const withoutText = amounts.map((item) => {
      if (!isUser(item)) return item;
      const { amount: _, ...rest } = item;
      return rest;
    });
    const oracle = await duckOf(withoutText);
    const ours = runLocal(viewCount, [{ info: tableInfo('orders', 'PK', 'SK'), items: withText }], views);
    await expectSameRows(ours.rows, oracle, viewCountDuck);
    expect(ours.warnings).toEqual([]);
    expect(answeredByLoops()).toBe(0);
  });
});
