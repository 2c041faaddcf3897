import type { DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { Value } from '../../src/main/sql/values/value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { isNum, numToString } from '../../src/main/sql/values/decimal';
import * as top from '../../src/main/sql/executor/operators/window-top';
import * as overTop from '../../src/main/sql/executor/operators/window-top-aggregate';
import { comparableRows, duckdbWith, duckRows, expectSameRows } from '../support/duckdb-oracle';

/**
 * Top N per partition as one operator (operators/window-top.ts) and a derived table's plain
 * columns kept as their source's columns at row numbers (late materialisation, table.ts
 * `fromColumns`), on the data that breaks such paths: ties, NULL and missing partition and
 * order values, partitions shorter than N, DESC and ASC, one column of numbers with several
 * scales, text order keys, and each shape the operator refuses. DuckDB is the oracle; which
 * of two tied rows ROW_NUMBER puts first is open there, so the tie order is checked against
 * the general path (`amount * 1` is an expression, which the operator refuses). An aggregate
 * over such a derived table is answered from the rows the operator keeps
 * (window-top-aggregate.ts): each form it takes and each it refuses, against DuckDB too.
 */
vi.mock('../../src/main/sql/executor/operators/window-top', async (original) => {
  const actual = await original<typeof top>();
  return {
    ...actual,
    topPerPartition: vi.fn(actual.topPerPartition),
    keptTally: vi.fn(actual.keptTally),
  };
});
const operator = vi.mocked(top.topPerPartition);
const keysSelector = vi.mocked(top.keptTally);
/** Whether the last statement's aggregate was answered from the kept keys alone, without rows. */
const keysTook = (): boolean => keysSelector.mock.results.some((r) => r.type === 'return' && r.value);
vi.mock('../../src/main/sql/executor/operators/window-top-aggregate', async (original) => {
  const actual = await original<typeof overTop>();
  return { ...actual, aggregateOverTop: vi.fn(actual.aggregateOverTop) };
});
const aggregator = vi.mocked(overTop.aggregateOverTop);

/** Whether the last statement's aggregate was answered from the kept rows (not only asked). */
const aggregatorTook = (): boolean =>
  aggregator.mock.results.some((r) => r.type === 'return' && r.value !== undefined);

/** Whether the last statement's QUALIFY was answered by the operator (not only asked). */
const operatorTook = (): boolean => operator.mock.results.some((r) => r.type === 'return' && r.value);

afterEach(() => {
  operator.mockClear();
  aggregator.mockClear();
  keysSelector.mockClear();
});

const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string): AttributeValue => ({ N: n });

const items: Item[] = Array.from({ length: 150 }, (_, k) => {
  const n = k + 1;
  // u0 has one order, u1 two, ...: partitions shorter and longer than N.
  const user = Math.floor(Math.sqrt(n * 2)) % 14;
  const item: Item = {
    orderId: S(`o${String(n).padStart(3, '0')}`),
    userId: S(`u${String(user).padStart(2, '0')}`),
    status: S(['PAID', 'OPEN', 'SHIPPED'][n % 3]!),
  };
  if (n % 17 === 0) delete item.userId;
  if (n % 23 === 0) item.userId = { NULL: true };
  // Ties (every 4th is 12.5), negatives, NULL and missing; whole numbers, two and three decimals.
  if (n % 19 === 0) item.amount = { NULL: true };
  else if (n % 13 !== 0) {
    const cents = n % 4 === 0 ? 1250 : ((n * 7919) % 9000) - 3000;
    item.amount = N(
      n % 5 === 0 ? String(Math.round(cents / 100)) : n % 7 === 0 ? `${cents / 100}7` : String(cents / 100),
    );
  }
  // A text order key with ties, NULL and missing, and code points past the BMP and U+E000.
  if (n % 11 !== 0)
    item.label = n % 29 === 0 ? { NULL: true } : S(['b', 'a', 'B', '\u{1F600}', '\uE000', 'ab'][n % 6]!);
  return item;
});
// Numbers too long for a double: BigInt decimals, refused.
const wide = items.map((item, k) => ({ ...item, amount: N(`${(k * 7919) % 97}12345678901234567.${k % 7}`) }));

const run = (data: Item[], sql: string) =>
  runLocal(sql, [{ info: tableInfo('orders', 'orderId'), items: data }]).rows;

/** `orders` as DuckDB holds it. */
const columns = {
  orderId: 'VARCHAR',
  userId: 'VARCHAR',
  status: 'VARCHAR',
  amount: 'DECIMAL(38,4)',
  label: 'VARCHAR',
} as const;

let duck: DuckDBConnection;
let duckWide: DuckDBConnection;
beforeAll(async () => {
  duck = await duckdbWith([{ name: 'orders', columns, items }]);
  duckWide = await duckdbWith([{ name: 'orders', columns, items: wide }]);
});

/** (user, key, number) triples are the same whichever tied row is numbered first. */
const ranked = (fn: string, order: string, where: string) =>
  `SELECT userId, ${order.split(' ')[0]}, r FROM (SELECT userId, amount, label, ${fn}() OVER (PARTITION BY userId ORDER BY ${order}) AS r FROM orders) t WHERE ${where} ORDER BY userId NULLS FIRST, 2 NULLS FIRST, r`;

describe('top N per partition, against DuckDB', () => {
  it.each([
    'amount DESC NULLS LAST',
    'amount ASC NULLS FIRST',
    'amount DESC NULLS FIRST',
    'label DESC NULLS LAST',
    'label ASC NULLS LAST',
  ])('ROW_NUMBER, RANK and DENSE_RANK by %s, N below, at and above the partition sizes', async (order) => {
    for (const fn of ['ROW_NUMBER', 'RANK', 'DENSE_RANK'])
      for (const where of ['r <= 3', 'r < 2', 'r = 2', '4 >= r', 'r <= 3 AND r >= 2', 'r <= 30']) {
        const sql = ranked(fn, order, where);
        await expectSameRows(run(items, sql), duck, sql);
        expect(operatorTook(), `${fn} ${where}`).toBe(true);
        operator.mockClear();
      }
  });

  it('the bench statement: top 3 per user counted and summed, several scales in one column', async () => {
    const sql =
      'SELECT COUNT(*) AS n, SUM(amount) AS top3, MIN(amount) AS low, MAX(orderId) AS last FROM (SELECT amount, orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM orders) t WHERE rn <= 3';
    await expectSameRows(
      run(items, sql),
      duck,
      sql.replace('ORDER BY amount DESC', 'ORDER BY amount DESC NULLS LAST'),
    );
    expect(operatorTook()).toBe(true);
  });

  it('QUALIFY without a derived table, and without PARTITION BY', async () => {
    const sql =
      'SELECT orderId, amount, RANK() OVER (ORDER BY amount DESC NULLS LAST) AS r FROM orders QUALIFY r <= 5 ORDER BY r, orderId';
    await expectSameRows(run(items, sql), duck, sql);
    expect(operatorTook()).toBe(true);
  });

  it('ROW_NUMBER numbers tied rows in input order, as the general path does', () => {
    for (const [typed, general] of [
      ['amount DESC', 'amount * 1 DESC'],
      ['amount', 'amount * 1'],
      ['label DESC', "label || '' DESC"],
    ] as const) {
      const sql = (order: string) =>
        `SELECT orderId, rn FROM (SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY ${order}) AS rn FROM orders) t WHERE rn <= 2 ORDER BY orderId`;
      const rows = run(items, sql(typed));
      expect(operatorTook()).toBe(true);
      operator.mockClear();
      expect(rows.length).toBeGreaterThan(20);
      expect(comparableRows(rows)).toEqual(comparableRows(run(items, sql(general))));
      expect(operatorTook()).toBe(false);
    }
  });

  it('SELECT * lists the attributes of the rows QUALIFY keeps, taken or not', () => {
    // Only the rows QUALIFY drops have a note: neither path lists it.
    const few: Item[] = [
      { orderId: S('a'), userId: S('u1'), amount: N('10') },
      { orderId: S('b'), userId: S('u1'), amount: N('5'), note: S('dropped') },
      { orderId: S('c'), userId: S('u2'), amount: N('20') },
      { orderId: S('d'), userId: S('u2'), amount: N('1'), note: S('dropped') },
    ];
    const columns = (order: string) =>
      runLocal(
        `SELECT * FROM orders QUALIFY ROW_NUMBER() OVER (PARTITION BY userId ORDER BY ${order}) <= 1 ORDER BY orderId`,
        [{ info: tableInfo('orders', 'orderId'), items: few }],
      );
    const typed = columns('amount DESC');
    expect(operatorTook()).toBe(true);
    operator.mockClear();
    const general = columns('amount * 1 DESC');
    expect(operatorTook()).toBe(false);
    expect(typed.rows.map((row) => row[0])).toEqual(['a', 'c']);
    expect(general.columns).toEqual(typed.columns);
    expect(typed.columns).not.toContain('note');
  });

  it('a bound below 1 keeps no row', () => {
    expect(run(items, ranked('ROW_NUMBER', 'amount DESC', 'r <= 0'))).toEqual([]);
  });
});

describe('what the operator refuses goes the general path, with the same answer', () => {
  it.each([
    ['an expression as the order key', 'amount * 1 DESC NULLS LAST', 'r <= 3'],
    ['an OR in the condition', 'amount DESC NULLS LAST', 'r <= 2 OR r = 5'],
    ['a bound past the rows kept per partition', 'amount DESC NULLS LAST', 'r <= 100'],
    ['no bound at all', 'amount DESC NULLS LAST', 'r >= 4'],
    ['a range written as BETWEEN', 'amount DESC NULLS LAST', 'r BETWEEN 2 AND 3'],
    ['another column in the condition', 'amount DESC NULLS LAST', 'r <= 2 AND amount > 0'],
  ])('%s', async (_, order, where) => {
    const sql = `SELECT userId, amount, r FROM (SELECT userId, amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY ${order}) AS r FROM orders) t WHERE ${where} ORDER BY userId NULLS FIRST, amount NULLS FIRST, r`;
    await expectSameRows(run(items, sql), duck, sql);
    expect(operatorTook()).toBe(false);
  });

  it('two windows, and numbers too long for a double', async () => {
    const two =
      'SELECT userId, amount, r, c FROM (SELECT userId, amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS r, COUNT(*) OVER (PARTITION BY userId) AS c FROM orders) t WHERE r <= 2 ORDER BY userId NULLS FIRST, amount NULLS FIRST';
    await expectSameRows(run(items, two), duck, two);
    expect(operatorTook()).toBe(false);
    const long = ranked('ROW_NUMBER', 'amount DESC NULLS LAST', 'r <= 2');
    await expectSameRows(run(wide, long), duckWide, long);
    expect(operatorTook()).toBe(false);
  });

  it('two partition keys, and a column mixing numbers and text', () => {
    const sql = (partition: string, order: string) =>
      `SELECT orderId, rn FROM (SELECT orderId, ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY ${order}) AS rn FROM orders) t WHERE rn <= 2 ORDER BY orderId`;
    const mixed = items.map((item, k) => (k % 5 === 0 ? { ...item, amount: S(`t${k % 3}`) } : item));
    const twoKeys = run(items, sql('userId, status', 'amount DESC'));
    expect(operatorTook()).toBe(false);
    expect(comparableRows(twoKeys)).toEqual(
      comparableRows(run(items, sql('userId, status', 'amount * 1 DESC'))),
    );
    const rows = run(mixed, sql('userId', 'amount DESC'));
    expect(operatorTook()).toBe(false);
    expect(rows.length).toBeGreaterThan(20);
    expect(comparableRows(rows)).toEqual(
      comparableRows(run(mixed, sql('userId', 'COALESCE(amount, amount) DESC'))),
    );
  });
});

describe("a derived table's plain columns read from their source at row numbers, against DuckDB", () => {
  const derived = 'SELECT orderId, userId, status, amount, label FROM orders WHERE amount > -10';
  it.each([
    `SELECT status, COUNT(*) AS n, SUM(amount) AS s, MIN(amount) AS lo, MAX(amount) AS hi FROM (${derived}) t GROUP BY status ORDER BY status`,
    `SELECT COUNT(*) AS n, SUM(amount) AS s FROM (${derived}) t WHERE status = 'PAID' AND label IN ('a', 'b')`,
    `SELECT COUNT(*) AS n FROM (${derived}) t WHERE begins_with(orderId, 'o1')`,
    `SELECT userId, COUNT(label) AS labels FROM (SELECT * FROM (${derived}) a WHERE amount < 40) t GROUP BY userId ORDER BY userId NULLS FIRST`,
    `SELECT o.orderId, t.amount FROM orders o LEFT JOIN (${derived}) t ON t.orderId = o.orderId AND t.amount > 20 WHERE o.orderId < 'o030' ORDER BY o.orderId`,
    `SELECT t.userId, SUM(t.amount) AS s FROM (SELECT o.userId, p.amount FROM orders o LEFT JOIN orders p ON p.orderId = o.orderId AND p.amount > 0) t GROUP BY t.userId ORDER BY t.userId NULLS FIRST`,
  ])('%s', async (sql) => {
    await expectSameRows(run(items, sql), duck, sql.replace('begins_with(', 'starts_with('));
  });
});

describe('an aggregate over top N per partition, from the kept rows, against DuckDB', () => {
  const overTopN = (calls: string, fn: string, order: string, where: string, inner = '') =>
    `SELECT ${calls} FROM (SELECT amount, label, status, userId, ${fn}() OVER (PARTITION BY userId ORDER BY ${order}) AS rn FROM orders${inner}) t WHERE ${where}`;
  const numberCalls =
    'COUNT(*) AS n, COUNT(amount) AS c, SUM(amount) AS s, AVG(amount) AS a, MIN(amount) AS lo, MAX(amount) AS hi';

  it.each([
    'amount DESC NULLS LAST',
    'amount DESC NULLS FIRST',
    'amount ASC NULLS FIRST',
    'amount ASC NULLS LAST',
    'label DESC NULLS LAST',
  ])(
    'COUNT, SUM, AVG, MIN and MAX by %s: ROW_NUMBER, RANK, DENSE_RANK, N below and past the partitions',
    async (order) => {
      // Which of two rows tied on the label ROW_NUMBER keeps is open, and the amount summed with it.
      const rankings = order.startsWith('label')
        ? ['RANK', 'DENSE_RANK']
        : ['ROW_NUMBER', 'RANK', 'DENSE_RANK'];
      for (const fn of rankings)
        for (const where of ['rn <= 3', 'rn < 2', 'rn = 2', 'rn <= 3 AND rn >= 2', 'rn <= 30']) {
          const sql = overTopN(numberCalls, fn, order, where);
          await expectSameRows(run(items, sql), duck, sql);
          expect(aggregatorTook(), `${fn} ${where}`).toBe(true);
          aggregator.mockClear();
          // COUNT of another column reads the kept rows' own values.
          const labels = overTopN('COUNT(label) AS labels, SUM(amount) AS s', fn, order, where);
          if (fn !== 'ROW_NUMBER') await expectSameRows(run(items, labels), duck, labels);
        }
    },
  );

  it.each([
    'amount DESC NULLS LAST',
    'amount DESC NULLS FIRST',
    'amount ASC NULLS FIRST',
    'amount ASC NULLS LAST',
  ])(
    'COUNT(*), COUNT, SUM and AVG of the ORDER BY column by %s are answered from the kept keys alone',
    async (order) => {
      const calls = 'COUNT(*) AS n, COUNT(amount) AS c, SUM(amount) AS s, AVG(amount) AS a';
      for (const where of ['rn <= 3', 'rn < 2', 'rn = 2', 'rn <= 3 AND rn >= 2', 'rn <= 30']) {
        const sql = overTopN(calls, 'ROW_NUMBER', order, where);
        await expectSameRows(run(items, sql), duck, sql);
        expect(keysTook(), where).toBe(true);
        keysSelector.mockClear();
      }
      // No number passes: the kept rows' path answers (COUNT 0, SUM NULL).
      const none = overTopN(calls, 'ROW_NUMBER', order, 'rn <= 0');
      await expectSameRows(run(items, none), duck, none);
      expect(keysTook()).toBe(false);
    },
  );

  it('keys alone with attribute names __proto__ and constructor, partitions of one, ties and NULLs', async () => {
    // Every fifth row is a partition of its own; the rest share the users (ties, NULL, missing).
    const named = items.map((item, k) => {
      const partition = k % 5 === 0 ? { S: `one${k}` } : item.userId;
      const fields = [`"orderId":${JSON.stringify(item.orderId)}`];
      if (partition) fields.push(`"__proto__":${JSON.stringify(partition)}`);
      if (item.amount) fields.push(`"constructor":${JSON.stringify(item.amount)}`);
      return JSON.parse(`{${fields.join(',')}}`) as Item;
    });
    const duckNamed = await duckdbWith([
      {
        name: 'orders',
        columns: { orderId: 'VARCHAR', ['__proto__']: 'VARCHAR', constructor: 'DECIMAL(38,4)' } as const,
        items: named,
      },
    ]);
    for (const where of ['rn <= 3', 'rn = 1', 'rn <= 2 AND rn > 1']) {
      const sql = `SELECT COUNT(*) AS n, SUM("constructor") AS s, AVG("constructor") AS a FROM (SELECT "constructor", ROW_NUMBER() OVER (PARTITION BY "__proto__" ORDER BY "constructor" DESC NULLS LAST) AS rn FROM orders) t WHERE ${where}`;
      await expectSameRows(run(named, sql), duckNamed, sql);
      expect(keysTook(), where).toBe(true);
      keysSelector.mockClear();
    }
  });

  it('keys alone when every row has a number: three places and more, ties, NULL partitions, a larger table between', async () => {
    // No row without a number: the selection never stops for one (window-top.ts keeps N ≤ 3 in
    // three places a partition, `keepThree`, and N > 3 by shifting, `keepNumbers`), and their
    // places are kept from one statement to the next, here over tables of other sizes in turn.
    const numbered = items.filter((item) => item.amount && !('NULL' in item.amount));
    const larger: Item[] = Array.from({ length: 3000 }, (_, k) => ({
      orderId: S(`p${k}`),
      userId: S(`w${(k * 37) % 1100}`),
      amount: N(k % 9 === 0 ? '7.5' : (((k * 7919) % 20000) / 100 - 50).toFixed(2)),
    }));
    const duckNumbered = await duckdbWith([{ name: 'orders', columns, items: numbered }]);
    const duckLarger = await duckdbWith([{ name: 'orders', columns, items: larger }]);
    const calls = 'COUNT(*) AS n, COUNT(amount) AS c, SUM(amount) AS s, AVG(amount) AS a';
    for (const order of ['amount DESC', 'amount ASC'])
      for (const where of [
        'rn <= 1',
        'rn < 3',
        'rn <= 3',
        'rn = 2',
        'rn <= 3 AND rn >= 2',
        'rn <= 4',
        'rn <= 5',
      ])
        for (const [data, oracle] of [
          [numbered, duckNumbered],
          [larger, duckLarger],
          [numbered, duckNumbered],
        ] as const) {
          const sql = overTopN(calls, 'ROW_NUMBER', order, where);
          await expectSameRows(run(data, sql), oracle, sql);
          expect(keysTook(), `${order} ${where}, ${data.length} rows`).toBe(true);
          keysSelector.mockClear();
        }
  });

  it('ROW_NUMBER by a text key with ties keeps the rows the general path keeps', () => {
    const sql = (order: string) =>
      overTopN('COUNT(*) AS n, SUM(amount) AS s, COUNT(label) AS labels', 'ROW_NUMBER', order, 'rn <= 2');
    const taken = run(items, sql('label DESC'));
    expect(aggregatorTook()).toBe(true);
    expect(comparableRows(taken)).toEqual(comparableRows(run(items, sql("label || '' DESC"))));
  });

  it("DuckDB 1.5 answers ROW_NUMBER … rn < 2 wrongly when another column is read; ours is the sum of each partition's least amount", async () => {
    // DuckDB rewrites the top 1 into a semi join on rowid (EXPLAIN) and sums -206.26 here.
    const sql = overTopN(
      'COUNT(*) AS n, SUM(amount) AS s, COUNT(status) AS st',
      'ROW_NUMBER',
      'amount ASC NULLS LAST',
      'rn < 2',
    );
    const rows = run(items, sql);
    expect(aggregatorTook()).toBe(true);
    await expectSameRows(
      rows,
      duck,
      'SELECT COUNT(*), SUM(least), COUNT(*) FROM (SELECT userId, MIN(amount) AS least FROM orders GROUP BY userId) g',
    );
  });

  it('the bench statement, a WHERE inside, expressions and HAVING over the answer, and no rows', async () => {
    const statements = [
      'SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders) t WHERE rn <= 3',
      overTopN(
        'COUNT(*) AS n, SUM(amount) AS s',
        'ROW_NUMBER',
        'amount DESC NULLS LAST',
        'rn <= 2',
        " WHERE status <> 'OPEN'",
      ),
      `${overTopN('COUNT(*) * 2 AS n2, SUM(amount) / COUNT(*) AS mean', 'ROW_NUMBER', 'amount ASC NULLS FIRST', 'rn <= 3')} HAVING COUNT(*) > 1`,
      overTopN(
        'COUNT(*) AS n, SUM(amount) AS s, AVG(amount) AS a',
        'ROW_NUMBER',
        'amount DESC NULLS LAST',
        'rn <= 3',
        " WHERE status = 'none'",
      ),
    ];
    for (const sql of statements) {
      await expectSameRows(run(items, sql), duck, sql);
      expect(aggregatorTook(), sql).toBe(true);
      aggregator.mockClear();
    }
  });

  it.each([
    [
      'a GROUP BY',
      'SELECT status, COUNT(*) AS n, SUM(amount) AS s FROM (SELECT amount, status, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders) t WHERE rn <= 3 GROUP BY status ORDER BY status',
    ],
    [
      'COUNT(DISTINCT …)',
      overTopN('COUNT(DISTINCT amount) AS d', 'ROW_NUMBER', 'amount DESC NULLS LAST', 'rn <= 3'),
    ],
    ["the window's own number", overTopN('SUM(rn) AS s', 'ROW_NUMBER', 'amount DESC NULLS LAST', 'rn <= 3')],
    ['an expression', overTopN('SUM(amount * 2) AS s', 'ROW_NUMBER', 'amount DESC NULLS LAST', 'rn <= 3')],
    [
      'another condition on the derived table',
      overTopN(
        'COUNT(*) AS n, SUM(amount) AS s',
        'ROW_NUMBER',
        'amount DESC NULLS LAST',
        'rn <= 3 AND amount > 0',
      ),
    ],
    [
      'MIN and MAX of text',
      overTopN('COUNT(*) AS n, MAX(label) AS hi', 'ROW_NUMBER', 'amount DESC NULLS LAST', 'rn <= 3'),
    ],
    [
      'a join',
      'SELECT COUNT(*) AS n, SUM(t.amount) AS s FROM (SELECT amount, orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders) t JOIN orders o ON o.orderId = t.orderId WHERE t.rn <= 3',
    ],
  ])('%s is refused, with the same answer', async (_, sql) => {
    await expectSameRows(run(items, sql), duck, sql);
    expect(aggregator).toHaveBeenCalled();
    expect(aggregatorTook()).toBe(false);
  });

  it('numbers too long for a double, and sums past exact integers, are refused', async () => {
    const long = overTopN('COUNT(*) AS n, SUM(amount) AS s', 'RANK', 'label DESC NULLS LAST', 'rn <= 3');
    await expectSameRows(run(wide, long), duckWide, long);
    expect(aggregatorTook()).toBe(false);
    // 15 significant digits: every value scales exactly; five of them add past SAFE_TOTAL.
    const large = items.map((item, k) => ({
      ...item,
      amount: N(`${900000000000 + k}.${k % 10}${k % 7}${k % 3}`),
    }));
    const duckLarge = await duckdbWith([
      {
        name: 'orders',
        columns: { userId: 'VARCHAR', amount: 'DECIMAL(38,4)', label: 'VARCHAR', status: 'VARCHAR' },
        items: large,
      },
    ]);
    const sum = overTopN(
      'COUNT(*) AS n, SUM(amount) AS s',
      'ROW_NUMBER',
      'amount DESC NULLS LAST',
      'rn <= 3',
    );
    const rows = run(large, sum);
    expect(aggregatorTook()).toBe(false);
    // Compared as exact decimal text: 12 significant digits would not see a lost cent.
    const [[count, total]] = rows as [[number, Value]];
    const [[duckCount, duckTotal]] = (await duckRows(
      duckLarge,
      sum.replace('SUM(amount)', 'CAST(SUM(amount) AS VARCHAR)'),
    )) as [[number, string]];
    expect(count).toBe(duckCount);
    expect(isNum(total) ? numToString(total) : total).toBe(duckTotal.replace(/0+$/, ''));
  });

  it('values that are not numbers are refused, and the general path says it skipped them', () => {
    const mixed = items.map((item, k) => (k % 5 === 0 ? { ...item, amount: S(`t${k % 3}`) } : item));
    const sql = (order: string) =>
      `SELECT COUNT(*) AS n, SUM(amount) AS s FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY ${order}) AS rn FROM orders) t WHERE rn <= 3`;
    const taken = runLocal(sql('label DESC'), [{ info: tableInfo('orders', 'orderId'), items: mixed }]);
    expect(aggregator).toHaveBeenCalled();
    expect(aggregatorTook()).toBe(false);
    const general = runLocal(sql("label || '' DESC"), [
      { info: tableInfo('orders', 'orderId'), items: mixed },
    ]);
    expect(comparableRows(taken.rows)).toEqual(comparableRows(general.rows));
    expect(taken.warnings.length).toBeGreaterThan(0);
    expect(taken.warnings).toEqual(general.warnings);
  });
});
