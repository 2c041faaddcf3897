import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, runOver, tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { AggregateScan } from '../../src/main/sql/executor/operators/aggregate-scan';
import { decimalLines } from '../support/duckdb-oracle';
import { sortKeyViews } from '../support/sort-key-views';
import { Random, sqlQuote } from '../support/sql-diff/data';

/**
 * GROUP BY in one loop over the columns (operators/aggregate-scan.ts): one coded key, COUNT(*)
 * and SUM/AVG/MIN/MAX of numbers, over a table, an entity view, or through a join that is a
 * lookup, with a code filter tested in the loop. DuckDB over the same rows is the oracle for
 * every form and every refusal: NULL and missing keys on both sides, join keys that are equal
 * numbers of different scales (7 = 7.0) or the same digits as text and as a number (which do not
 * join), amounts with more decimals than cents, a BigInt decimal, a repeated build key, empty
 * tables, LEFT JOIN, HAVING and ORDER BY. A spy says where the loop answered and where it
 * refused, so a refusal that should not happen (or an answer that should not) fails here.
 */
const COUNTRIES = ['NO', 'SE', 'DK', 'FI', 'DE'];
const STATUSES = ['PAID', 'OPEN', 'SHIPPED'];
const AMOUNTS = ['12', '12.5', '0.25', '3.14159', '-7.125', '1000', '0.001', '99.99'];
const CUSTOMERS = 900;
const ORDERS = 6_000;

interface Rows {
  customers: Item[];
  orders: Item[];
  /** One table of both, told apart by SK (entity views `users` and `purchases`). */
  app: Item[];
}

const id = (c: number): string => `c${String(c).padStart(4, '0')}`;

function dataset(seed: number): Rows {
  const r = new Random(seed);
  const customers: Item[] = [];
  for (let c = 0; c < CUSTOMERS; c++) {
    const item: Item = { name: { S: `Customer ${c % 300}` } };
    const roll = r.next();
    if (roll < 0.02) item.customerId = { NULL: true };
    else if (roll >= 0.03) item.customerId = { S: id(c) };
    // A numeric key too: 7 here, 7.0 or "7" (text, which joins nothing numeric) on the orders.
    if (r.next() > 0.05) item.customerNo = { N: String(c) };
    const country = r.next();
    if (country < 0.04) item.country = { NULL: true };
    else if (country >= 0.08) item.country = { S: r.pick(COUNTRIES) };
    customers.push(item);
  }
  const orders: Item[] = [];
  for (let o = 0; o < ORDERS; o++) {
    const item: Item = { orderId: { S: `o${o}` } };
    const who = r.int(0, CUSTOMERS - 1);
    const roll = r.next();
    if (roll < 0.03) item.customerId = { NULL: true };
    else if (roll < 0.06) item.customerId = { S: `nobody${o % 9}` };
    else if (roll >= 0.08) item.customerId = { S: id(who) };
    const number = r.next();
    if (number < 0.3) item.customerNo = { N: `${who}.0` };
    else if (number < 0.35) item.customerNo = { S: String(who) };
    else if (number < 0.95) item.customerNo = { N: String(who) };
    const status = r.next();
    if (status < 0.04) item.status = { NULL: true };
    else if (status >= 0.08) item.status = { S: r.pick(STATUSES) };
    const amount = r.next();
    if (amount < 0.04) item.amount = { NULL: true };
    else if (amount >= 0.08) item.amount = { N: r.pick(AMOUNTS) };
    orders.push(item);
  }
  const app: Item[] = [
    ...customers.map((c, i) => ({ ...c, PK: { S: `C#${i}` }, SK: { S: `USER#${i}` } })),
    ...orders.map((o, i) => ({ ...o, PK: { S: `O#${i}` }, SK: { S: `ORDER#${i}` } })),
  ];
  return { customers, orders, app };
}

const VIEWS = sortKeyViews('App', { users: 'USER#', purchases: 'ORDER#' });

/** DuckDB's copy: numbers as exact decimals (10 places, 28 before the point). */
async function loadDuck(connection: DuckDBConnection, name: string, rows: Rows): Promise<void> {
  const text = (item: Item, attr: string): string => {
    const v = item[attr];
    return v && 'S' in v ? sqlQuote(v.S) : 'NULL';
  };
  const number = (item: Item, attr: string): string => {
    const v = item[attr];
    return v && 'N' in v ? v.N : 'NULL';
  };
  await connection.run(
    `CREATE OR REPLACE TABLE ${name}_customers (customerId VARCHAR, customerNo DECIMAL(38,10), country VARCHAR, name VARCHAR)`,
  );
  await connection.run(
    `CREATE OR REPLACE TABLE ${name}_orders (orderId VARCHAR, customerId VARCHAR, customerNo DECIMAL(38,10), status VARCHAR, amount DECIMAL(38,10))`,
  );
  const customers = rows.customers.map(
    (c) =>
      `(${text(c, 'customerId')}, ${number(c, 'customerNo')}, ${text(c, 'country')}, ${text(c, 'name')})`,
  );
  const orders = rows.orders.map(
    (o) =>
      `(${text(o, 'orderId')}, ${text(o, 'customerId')}, ${number(o, 'customerNo')}, ${text(o, 'status')}, ${number(o, 'amount')})`,
  );
  if (customers.length > 0)
    await connection.run(`INSERT INTO ${name}_customers VALUES ${customers.join(', ')}`);
  if (orders.length > 0) await connection.run(`INSERT INTO ${name}_orders VALUES ${orders.join(', ')}`);
}

const INFOS = [tableInfo('customers', 'name'), tableInfo('orders', 'orderId'), tableInfo('App', 'PK', 'SK')];

function engine(rows: Rows, sql: string): { rows: unknown[][]; warnings: string[] } {
  return runLocal(
    sql,
    INFOS.map((info) => ({ info, items: rows[info.name === 'App' ? 'app' : (info.name as keyof Rows)] })),
    VIEWS,
  );
}

/** The statement for DuckDB: its tables named for the dataset, the entity views as conditions. */
function duckSql(sql: string, name: string): string {
  return sql
    .replace(/\bcustomers\b/g, `${name}_customers`)
    .replace(/\borders\b/g, `${name}_orders`)
    .replace(/\busers (\w)\b/g, (_, a: string) => `${name}_customers ${a}`)
    .replace(/\bpurchases (\w)\b/g, (_, a: string) => `${name}_orders ${a}`)
    .replace(/\bFROM purchases\b/g, `FROM ${name}_orders`);
}

let connection: DuckDBConnection;
const sets = new Map<string, Rows>();
beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  const data = dataset(20_261_207);
  // Customer 5's id and number also on customers 6 and 7: not a lookup any more.
  const repeated = {
    ...data,
    customers: data.customers.map((c, i) =>
      i === 6 || i === 7 ? { ...c, customerId: { S: id(5) }, customerNo: { N: '5' } } : c,
    ),
  };
  // One amount of 20 digits: a BigInt decimal, which scaled integers do not hold.
  const big = {
    ...data,
    orders: data.orders.map((o, i) => (i === 17 ? { ...o, amount: { N: '12345678901234567890.5' } } : o)),
  };
  // One amount of 14 digits: the loop's bound (largest × rows) passes SAFE_TOTAL, so it refuses
  // and the general path adds exactly.
  const huge = {
    ...data,
    orders: data.orders.map((o, i) => (i === 23 ? { ...o, amount: { N: '9999999999999.5' } } : o)),
  };
  const empty = { customers: [], orders: [], app: [] };
  for (const [name, rows] of [
    ['data', data],
    ['repeated', repeated],
    ['big', big],
    ['huge', huge],
    ['empty', empty],
  ] as const) {
    sets.set(name, rows);
    await loadDuck(connection, name, rows);
  }
});
afterAll(() => connection.closeSync());
afterEach(() => vi.restoreAllMocks());

async function expectAgrees(name: string, sql: string, approx: number[] = []): Promise<unknown[][]> {
  const ours = engine(sets.get(name)!, sql).rows;
  const theirs = (await connection.runAndReadAll(duckSql(sql, name))).getRowsJson();
  expect(decimalLines(ours, approx).sort()).toEqual(decimalLines(theirs, approx).sort());
  return ours;
}

/**
 * Whether the one loop answered the statement (true), refused it after reading rows (false), or
 * was never asked (undefined: the statement's form is not one it reads).
 */
function scanAnswered(rows: Rows, sql: string): boolean | undefined {
  const run = vi.spyOn(AggregateScan.prototype, 'run');
  engine(rows, sql);
  const results = run.mock.results;
  run.mockRestore();
  return results.length === 0
    ? undefined
    : results.every((r) => r.type === 'return' && r.value !== undefined);
}

const JOINED = 'FROM orders o JOIN customers c ON o.customerId = c.customerId';

const CASES: { name: string; sql: string; approx?: number[]; set?: string; answered: boolean | undefined }[] =
  [
    {
      name: 'GROUP BY over a whole table, NULL and missing keys in one group',
      sql: 'SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(amount), MAX(amount) FROM orders GROUP BY status',
      approx: [3],
      answered: true,
    },
    {
      name: 'GROUP BY over an entity view (its rows listed)',
      sql: 'SELECT p.status, COUNT(*), SUM(p.amount) FROM purchases p GROUP BY p.status',
      answered: true,
    },
    {
      name: 'COUNT(*) alone over a whole table',
      sql: 'SELECT status, COUNT(*) FROM orders GROUP BY status',
      answered: true,
    },
    {
      name: 'COUNT(*) alone and AVG over an entity view',
      sql: 'SELECT p.status, COUNT(*), AVG(p.amount) FROM purchases p GROUP BY p.status',
      approx: [2],
      answered: true,
    },
    {
      name: 'GROUP BY with a code filter',
      sql: "SELECT status, COUNT(*), SUM(amount) FROM orders WHERE status <> 'OPEN' GROUP BY status",
      answered: true,
    },
    {
      name: 'a code filter on another column than the key, with AVG',
      sql: "SELECT customerId, COUNT(*), AVG(amount) FROM orders WHERE status IN ('PAID', 'OPEN') GROUP BY customerId",
      approx: [2],
      answered: true,
    },
    {
      name: 'a code filter whose text no row holds, and its negation',
      sql: "SELECT status, COUNT(*), SUM(amount) FROM orders WHERE status NOT IN ('NOPE', 'PAID') GROUP BY status",
      answered: true,
    },
    {
      name: 'a code filter on a derived table (codes read through its rows)',
      sql: "SELECT t.status, COUNT(*), SUM(t.amount) FROM (SELECT status, amount FROM orders WHERE amount > 10) t WHERE t.status IN ('PAID', 'SHIPPED') GROUP BY t.status",
      answered: true,
    },
    {
      name: 'the join as a lookup, with every typed aggregate',
      sql: `SELECT c.country, COUNT(*), SUM(o.amount), AVG(o.amount), MIN(o.amount), MAX(o.amount) ${JOINED} GROUP BY c.country`,
      approx: [3],
      answered: true,
    },
    {
      name: 'the join with a code filter tested in the loop',
      sql: `SELECT c.country, COUNT(*), SUM(o.amount) ${JOINED} WHERE o.status = 'PAID' GROUP BY c.country`,
      answered: true,
    },
    {
      name: 'the join of two entity views',
      sql: 'SELECT u.name, COUNT(*), SUM(p.amount) FROM purchases p JOIN users u ON p.customerId = u.customerId GROUP BY u.name',
      answered: true,
    },
    {
      name: 'an entity view and a code filter together',
      sql: "SELECT u.country, COUNT(*), SUM(p.amount) FROM purchases p JOIN users u ON p.customerId = u.customerId WHERE p.status IN ('PAID', 'SHIPPED') GROUP BY u.country",
      answered: true,
    },
    {
      name: 'LEFT JOIN: unmatched and NULL-keyed orders in the group of NULL keys',
      sql: 'SELECT c.country, COUNT(*), SUM(o.amount), MAX(o.amount) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
      answered: true,
    },
    {
      name: 'numeric join keys: 7 joins 7.0, the text "7" joins nothing',
      sql: 'SELECT c.country, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.customerNo = c.customerNo GROUP BY c.country',
      answered: true,
    },
    {
      name: 'the key side written first',
      sql: 'SELECT c.country, COUNT(*), SUM(o.amount) FROM customers c JOIN orders o ON c.customerId = o.customerId GROUP BY c.country',
      answered: true,
    },
    {
      name: 'HAVING and ORDER BY on the groups',
      sql: `SELECT c.country, COUNT(*) AS n, SUM(o.amount) AS total ${JOINED} GROUP BY c.country HAVING COUNT(*) > 100 ORDER BY total DESC`,
      answered: true,
    },
    {
      name: 'COUNT(*) alone',
      sql: `SELECT c.name, COUNT(*) ${JOINED} GROUP BY c.name`,
      answered: true,
    },
    // Tables with no rows have no columns to read: the general path answers.
    {
      name: 'empty tables',
      sql: `SELECT c.country, COUNT(*), SUM(o.amount) ${JOINED} GROUP BY c.country`,
      set: 'empty',
      answered: undefined,
    },
    {
      name: 'an empty table grouped',
      sql: 'SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status',
      set: 'empty',
      answered: undefined,
    },
    // Refused after reading rows: the general path answers.
    {
      name: 'a repeated key on the key side (not a lookup)',
      sql: `SELECT c.country, COUNT(*), SUM(o.amount) ${JOINED} GROUP BY c.country`,
      set: 'repeated',
      answered: false,
    },
    {
      name: 'a repeated numeric key on the key side',
      sql: 'SELECT c.country, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.customerNo = c.customerNo GROUP BY c.country',
      set: 'repeated',
      answered: false,
    },
    {
      name: 'a filter leaving fewer orders than customers (the general path probes the customers)',
      sql: `SELECT c.country, COUNT(*) ${JOINED} WHERE o.orderId IN ('o1', 'o2', 'o3', 'o4', 'o5') GROUP BY c.country`,
      answered: false,
    },
    {
      name: 'totals that could pass 2^53',
      sql: `SELECT c.country, COUNT(*), SUM(o.amount), AVG(o.amount) ${JOINED} GROUP BY c.country`,
      approx: [3],
      set: 'huge',
      answered: false,
    },
    // Not a form the loop reads: never asked, the general path answers.
    {
      name: 'a BigInt decimal among the amounts',
      sql: 'SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status',
      set: 'big',
      answered: undefined,
    },
    {
      name: 'a key of the aggregated side in a join',
      sql: `SELECT o.status, COUNT(*), SUM(o.amount) ${JOINED} GROUP BY o.status`,
      answered: undefined,
    },
    {
      name: 'an aggregate of the key side',
      sql: `SELECT c.country, COUNT(c.name) ${JOINED} GROUP BY c.country`,
      answered: undefined,
    },
    {
      name: 'two keys',
      sql: 'SELECT status, customerId, COUNT(*) FROM orders GROUP BY status, customerId',
      answered: undefined,
    },
    {
      name: 'DISTINCT in an aggregate',
      sql: 'SELECT status, COUNT(DISTINCT amount) FROM orders GROUP BY status',
      answered: undefined,
    },
    {
      name: 'a condition that is not a code test',
      sql: 'SELECT status, COUNT(*), SUM(amount) FROM orders WHERE amount > 10 GROUP BY status',
      answered: undefined,
    },
    {
      name: 'a condition across both sides',
      sql: `SELECT c.country, COUNT(*) ${JOINED} WHERE o.status = 'PAID' OR c.country = 'NO' GROUP BY c.country`,
      answered: undefined,
    },
  ];

describe('GROUP BY in one loop (DuckDB as the oracle)', () => {
  for (const c of CASES) {
    it(`agrees on ${c.name}, and the loop ${c.answered ? 'answers' : 'does not'}`, async () => {
      const set = c.set ?? 'data';
      await expectAgrees(set, c.sql, c.approx);
      expect(scanAnswered(sets.get(set)!, c.sql)).toBe(c.answered);
    });
  }

  it('gives the groups in the general path’s order (first appearance)', () => {
    const sql = `SELECT c.country, COUNT(*), SUM(o.amount) ${JOINED} GROUP BY c.country`;
    // `o.amount + 0` is an expression, which only the general path reads.
    const general = sql.replace('SUM(o.amount)', 'SUM(o.amount + 0)');
    const data = sets.get('data')!;
    expect(scanAnswered(data, general)).toBeUndefined();
    const keys = (rows: unknown[][]): unknown[] => rows.map((r) => r[0]);
    expect(keys(engine(data, sql).rows)).toEqual(keys(engine(data, general).rows));
    for (const grouped of [
      'SELECT status, COUNT(*) FROM orders GROUP BY status',
      'SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status',
      'SELECT p.status, COUNT(*), SUM(p.amount) FROM purchases p GROUP BY p.status',
      'SELECT p.customerId, COUNT(*) FROM purchases p GROUP BY p.customerId',
      "SELECT status, COUNT(*), SUM(amount) FROM orders WHERE status <> 'OPEN' GROUP BY status",
      "SELECT customerId, COUNT(*) FROM orders WHERE status IN ('PAID', 'SHIPPED') GROUP BY customerId",
    ]) {
      const plain = grouped.replace('COUNT(*)', 'COUNT(1 + 0)');
      expect(scanAnswered(data, plain)).toBeUndefined();
      expect(keys(engine(data, grouped).rows)).toEqual(keys(engine(data, plain).rows));
    }
  });

  it('finds a filter’s text in the column’s codes without decoding the column', async () => {
    const read = vi.spyOn(ColumnarTable.prototype, 'column');
    for (const sql of [
      `SELECT c.country, COUNT(*), SUM(o.amount) ${JOINED} WHERE o.status = 'PAID' GROUP BY c.country`,
      "SELECT status, COUNT(*) FROM orders WHERE status IN ('OPEN', 'NOPE') GROUP BY status",
    ]) {
      await expectAgrees('data', sql);
      expect(read.mock.calls.filter(([attr]) => attr === 'status')).toEqual([]);
    }
  });

  it('skips values that are not numbers in SUM, counts them and says so', () => {
    const data = sets.get('data')!;
    const orders = data.orders.map((o, i) => (i % 100 === 1 ? { ...o, amount: { S: 'n/a' } } : o));
    const strings = orders.filter((o) => o.amount && 'S' in o.amount).length;
    const rows = { ...data, orders };
    const sql = 'SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status';
    const run = engine(rows, sql);
    // The oracle: a plain tally per status, in ten-thousandths (every amount has at most 5 places).
    const tally = new Map<string, { rows: number; sum: bigint | null }>();
    for (const o of orders) {
      const key = o.status && 'S' in o.status ? o.status.S : 'NULL';
      const entry = tally.get(key) ?? { rows: 0, sum: null };
      entry.rows += 1;
      if (o.amount && 'N' in o.amount)
        entry.sum = (entry.sum ?? 0n) + BigInt(Math.round(Number(o.amount.N) * 100_000));
      tally.set(key, entry);
    }
    expect(strings).toBeGreaterThan(0);
    expect(decimalLines(run.rows).sort()).toEqual(
      decimalLines(
        [...tally].map(([key, t]) => [key, t.rows, t.sum === null ? null : Number(t.sum) / 100_000]),
      ).sort(),
    );
    expect(run.warnings.join(' ')).toContain(`skipped ${strings} values that are not numbers`);
    expect(scanAnswered(rows, sql)).toBe(true);
  });
});

describe('GROUP BY in one loop over a table that grows (DuckDB as the oracle)', () => {
  // A second page brings rows to old groups, new groups (statuses named like Object's own
  // properties), and a group whose amounts are all missing; the statements read what they kept
  // with the columns after the first page (codes, scaled amounts, an entity view's rows).
  const STATEMENTS = [
    'SELECT status, COUNT(*), SUM(amount), AVG(amount) FROM orders GROUP BY status',
    'SELECT status, COUNT(*) FROM orders GROUP BY status',
    'SELECT p.status, COUNT(*), SUM(p.amount), AVG(p.amount) FROM purchases p GROUP BY p.status',
    'SELECT p.status, COUNT(*) FROM purchases p GROUP BY p.status',
    "SELECT status, COUNT(*), SUM(amount) FROM orders WHERE status <> 'PAID' GROUP BY status",
    "SELECT status, COUNT(*) FROM orders WHERE status IN ('__proto__', 'OPEN') GROUP BY status",
    // Through a join: each order's group is resolved once and kept with the lookup, and both
    // sides grow (the second page brings orders and the customers of half the ids).
    'SELECT c.country, COUNT(*), SUM(o.amount), AVG(o.amount) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
    "SELECT c.country, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'PAID' GROUP BY c.country",
    'SELECT c.country, COUNT(*) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
    'SELECT u.name, COUNT(*), SUM(p.amount) FROM purchases p JOIN users u ON p.customerId = u.customerId GROUP BY u.name',
  ];
  const HALF = ORDERS / 2;

  function grown(): Rows {
    const data = sets.get('data')!;
    const renamed = (o: Item, i: number): Item => {
      if (i < HALF) return o;
      if (i % 50 === 3) return { ...o, status: { S: '__proto__' } };
      if (i % 50 === 4) return { ...o, status: { S: 'constructor' } };
      if (i % 50 === 5) {
        const { amount: _, ...rest } = o;
        return { ...rest, status: { S: 'NO AMOUNT' } };
      }
      return o;
    };
    const orders = data.orders.map(renamed);
    const app = orders.map((o, i) => ({ ...o, PK: { S: `O#${i}` }, SK: { S: `ORDER#${i}` } }));
    const users = data.app.slice(0, CUSTOMERS);
    return {
      customers: data.customers,
      orders,
      // Half the users on the first page, half on the second, as in the customers table.
      app: [
        ...users.slice(0, CUSTOMERS / 2),
        ...app.slice(0, HALF),
        ...users.slice(CUSTOMERS / 2),
        ...app.slice(HALF),
      ],
    };
  }

  it('answers a statement after a page is appended from the new rows too', async () => {
    const all = grown();
    const first: Rows = {
      customers: all.customers.slice(0, CUSTOMERS / 2),
      orders: all.orders.slice(0, HALF),
      app: all.app.slice(0, CUSTOMERS / 2 + HALF),
    };
    await loadDuck(connection, 'firstpage', first);
    await loadDuck(connection, 'grown', all);
    const held = new Map(
      INFOS.map((info) => [
        info.name,
        new ColumnarTable(info.name, info.name === 'App' ? ['PK', 'SK'] : [info.keys.partitionKey.name]),
      ]),
    );
    const append = (rows: Rows, from: Rows | undefined): void => {
      held.get('customers')!.appendTaggedItems(rows.customers.slice(from?.customers.length ?? 0));
      held.get('orders')!.appendTaggedItems(rows.orders.slice(from?.orders.length ?? 0));
      held.get('App')!.appendTaggedItems(rows.app.slice(from?.app.length ?? 0));
    };
    const agrees = async (name: string, sql: string): Promise<void> => {
      const run = vi.spyOn(AggregateScan.prototype, 'run');
      const ours = runOver(sql, INFOS, held, VIEWS).rows;
      expect(run.mock.results.map((r) => r.value !== undefined)).toEqual([true]);
      run.mockRestore();
      const theirs = (await connection.runAndReadAll(duckSql(sql, name))).getRowsJson();
      expect(decimalLines(ours, [3]).sort()).toEqual(decimalLines(theirs, [3]).sort());
    };
    append(first, undefined);
    for (const sql of STATEMENTS) await agrees('firstpage', sql);
    append(all, first);
    for (const sql of STATEMENTS) await agrees('grown', sql);
    const statuses = runOver(STATEMENTS[0]!, INFOS, held, VIEWS).rows.map((r) => r[0]);
    expect(statuses).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'NO AMOUNT']));
  });
});

describe('GROUP BY through a join, what it keeps between statements (DuckDB as the oracle)', () => {
  // The lookup keeps each walked row's group (-1 outside an entity view's rows), the groups'
  // order of first appearance and their keys; a statement over other rows of the same join, a
  // LEFT JOIN, a filter or another view must not read what an earlier statement kept.
  const VIEW =
    'SELECT u.name, COUNT(*), SUM(p.amount), AVG(p.amount) FROM purchases p JOIN users u ON p.customerId = u.customerId GROUP BY u.name';
  const STATEMENTS = [
    VIEW,
    VIEW,
    "SELECT u.name, COUNT(*), SUM(p.amount) FROM purchases p JOIN users u ON p.customerId = u.customerId WHERE p.status = 'PAID' GROUP BY u.name",
    VIEW,
    'SELECT u.name, COUNT(*), SUM(x.customerNo) FROM users x JOIN users u ON x.customerId = u.customerId GROUP BY u.name',
    VIEW,
    'SELECT u.name, COUNT(*), SUM(p.amount) FROM purchases p LEFT JOIN users u ON p.customerId = u.customerId GROUP BY u.name',
    'SELECT u.name, COUNT(*) FROM purchases p JOIN users u ON p.customerId = u.customerId GROUP BY u.name',
    VIEW,
    // Two tables, every row walked: a filter's groups come in their own order.
    'SELECT c.name, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.name',
    "SELECT c.name, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'OPEN' GROUP BY c.name",
    "SELECT c.name, COUNT(*) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status <> 'PAID' GROUP BY c.name",
    'SELECT c.name, COUNT(*), SUM(o.amount) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.name',
  ];
  // `p.amount + 0` and `COUNT(1 + 0)` are expressions, which only the general path reads.
  const general = (sql: string): string =>
    sql.replace(/SUM\((\w)\.(\w+)\)/, 'SUM($1.$2 + 0)').replace('COUNT(*)', 'COUNT(1 + 0)');

  function held(rows: Rows): Map<string, ColumnarTable> {
    const tables = new Map<string, ColumnarTable>();
    for (const [name, keys, items] of [
      ['App', ['PK', 'SK'], rows.app],
      ['customers', ['name'], rows.customers],
      ['orders', ['orderId'], rows.orders],
    ] as const) {
      const table = new ColumnarTable(name, keys);
      table.appendTaggedItems(items);
      tables.set(name, table);
    }
    return tables;
  }

  async function expectAnswered(
    tables: Map<string, ColumnarTable>,
    sql: string,
    duck: string,
    views = VIEWS,
  ): Promise<void> {
    const run = vi.spyOn(AggregateScan.prototype, 'run');
    const ours = runOver(sql, INFOS, tables, views).rows;
    expect(run.mock.results.map((r) => r.value !== undefined)).toEqual([true]);
    run.mockRestore();
    const theirs = (await connection.runAndReadAll(duck)).getRowsJson();
    expect(decimalLines(ours, [3]).sort()).toEqual(decimalLines(theirs, [3]).sort());
    // The groups in the general path's order (first appearance), over the same held columns.
    const plain = general(sql);
    expect(plain).not.toBe(sql);
    const keys = (rows: unknown[][]): unknown[] => rows.map((r) => r[0]);
    expect(keys(ours)).toEqual(keys(runOver(plain, INFOS, tables, views).rows));
  }

  it('answers each statement from its own rows when the same join is walked over other rows', async () => {
    const tables = held(sets.get('data')!);
    for (const sql of STATEMENTS) await expectAnswered(tables, sql, duckSql(sql, 'data'));
  });

  it('renews what it kept when the view is narrower, and when the rows change', async () => {
    const data = sets.get('data')!;
    const tables = held(data);
    await expectAnswered(tables, VIEW, duckSql(VIEW, 'data'));
    // The same statement, its view now the orders whose SK starts with ORDER#1.
    const narrower = sortKeyViews('App', { users: 'USER#', purchases: 'ORDER#1' });
    await expectAnswered(
      tables,
      VIEW,
      duckSql(VIEW, 'data').replace(' GROUP BY', " WHERE p.orderId LIKE 'o1%' GROUP BY"),
      narrower,
    );
    await expectAnswered(tables, VIEW, duckSql(VIEW, 'data'));
    // New rows on the same table: an order for every customer with an id (NULL ones too), and a
    // customer named `__proto__` with two orders, one without an amount.
    const extra: Rows = {
      customers: [{ customerId: { S: 'late' }, name: { S: '__proto__' }, customerNo: { N: '1' } }],
      orders: [
        ...data.customers.flatMap((c, i) =>
          c.customerId
            ? [{ orderId: { S: `late${i}` }, customerId: c.customerId, amount: { N: '1.5' } }]
            : [],
        ),
        { orderId: { S: 'late-a' }, customerId: { S: 'late' }, amount: { N: '2' } },
        { orderId: { S: 'late-b' }, customerId: { S: 'late' } },
      ],
      app: [],
    };
    extra.app = [
      ...extra.customers.map((c, i) => ({ ...c, PK: { S: `LC#${i}` }, SK: { S: `USER#late${i}` } })),
      ...extra.orders.map((o, i) => ({ ...o, PK: { S: `LO#${i}` }, SK: { S: `ORDER#late${i}` } })),
    ];
    tables.get('App')!.appendTaggedItems(extra.app);
    const all: Rows = {
      customers: [...data.customers, ...extra.customers],
      orders: [...data.orders, ...extra.orders],
      app: [],
    };
    await loadDuck(connection, 'later', all);
    const ours = runOver(VIEW, INFOS, tables, VIEWS).rows;
    expect(ours.map((r) => r[0])).toContain('__proto__');
    await expectAnswered(tables, VIEW, duckSql(VIEW, 'later'));
  });
});
