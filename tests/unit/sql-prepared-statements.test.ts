import type { DuckDBConnection } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { EntityView, TableInfo } from '../../src/shared/sql/catalog';
import type { BoundQuery } from '../../src/main/sql/binder/bound';
import { runOver, tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { SqlError } from '../../src/main/sql/parser/sql-error';
import { PreparedStatements } from '../../src/main/sql/prepared-statements';
import { comparable, duckdbWith, duckRows } from '../support/duckdb-oracle';
import { sortKeyViews } from '../support/sort-key-views';
import { Random } from '../support/sql-diff/data';

/**
 * The plan cache (prepared-statements.ts): a statement run again reuses its parse and binding
 * while the catalog answers its FROM names the same, and its answer always follows the data.
 * Each run is checked against DuckDB over the same items, after the data, the attributes, the
 * views or the table's description changed between two runs of one text. Attribute and group
 * names are data (`__proto__`, `constructor`, dots, `#`, `[0]`).
 */
const NAMES = ['__proto__', 'constructor', 'a.b', '#1', '[0]', 'Ada'];
const APP = tableInfo('App', 'PK', 'SK');

function appItems(seed: number, users: number, orders: number, extra?: string): Item[] {
  const r = new Random(seed);
  const items: Item[] = [];
  for (let u = 0; u < users; u++)
    items.push({
      PK: { S: `USER#${u}` },
      SK: { S: `USER#${u}` },
      userId: { S: `u${u}` },
      name: { S: r.pick(NAMES) },
    });
  for (let o = 0; o < orders; o++) {
    const order: Item = {
      PK: { S: `USER#${o % users}` },
      SK: { S: `${o % 5 === 0 ? 'RETURN' : 'ORDER'}#${o}` },
      userId: { S: `u${r.int(0, users - 1)}` },
      amount: { N: String(r.int(-500, 9_000) / 100) },
    };
    if (extra) order[extra] = { S: `x${o % 3}` };
    items.push(order);
  }
  return items;
}

function loaded(info: TableInfo, items: readonly Item[]): Map<string, ColumnarTable> {
  const table = new ColumnarTable(info.name, ['PK', 'SK']);
  table.appendTaggedItems(items);
  return new Map([[info.name, table]]);
}

const connections: DuckDBConnection[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.closeSync();
});

async function duck(items: Item[], columns: string[], sql: string): Promise<unknown[][]> {
  const types: Record<string, 'VARCHAR' | 'DECIMAL(38,4)'> = { PK: 'VARCHAR', SK: 'VARCHAR' };
  for (const c of columns) types[c] = c === 'amount' ? 'DECIMAL(38,4)' : 'VARCHAR';
  const connection = await duckdbWith([{ name: 'App', columns: types, items }]);
  connections.push(connection);
  return sorted(await duckRows(connection, sql));
}

const sorted = (rows: unknown[][]): unknown[][] =>
  rows.map((row) => row.map(comparable)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const JOIN =
  'SELECT u.name, COUNT(*) AS n, SUM(o.amount) AS total FROM orders o JOIN users u ON o.userId = u.userId GROUP BY u.name';
const duckJoin = (prefix: string): string =>
  `SELECT u.name, COUNT(*), SUM(o.amount) FROM App o JOIN App u ON o.userId = u.userId WHERE starts_with(o.SK, '${prefix}') AND starts_with(u.SK, 'USER#') GROUP BY u.name`;

describe('prepared statements (the plan cache)', () => {
  it('a re-run over reloaded data reuses the binding and answers from the new data', async () => {
    const statements = new PreparedStatements();
    const views = sortKeyViews('App', { users: 'USER#', orders: 'ORDER#' });
    const first = appItems(1, 40, 600);
    const run1 = runOver(JOIN, [APP], loaded(APP, first), views, 0, statements);
    expect(sorted(run1.rows)).toEqual(await duck(first, ['userId', 'name', 'amount'], duckJoin('ORDER#')));

    // The table read again: other items, more of them, and an attribute no item had before.
    const second = appItems(2, 55, 900, 'constructor');
    const reloaded = loaded(APP, second);
    const run2 = runOver(JOIN, [APP], reloaded, views, 0, statements);
    expect(run2.bound).toBe(run1.bound);
    expect(sorted(run2.rows)).toEqual(await duck(second, ['userId', 'name', 'amount'], duckJoin('ORDER#')));

    // `*` is the attributes the rows have now, the new one included.
    const star = "SELECT * FROM orders WHERE SK = 'ORDER#1'";
    runOver(star, [APP], loaded(APP, first), views, 0, statements);
    const again = runOver(star, [APP], reloaded, views, 0, statements);
    expect(again.columns).toContain('constructor');
    expect(sorted(again.rows)).toEqual(
      await duck(
        second,
        ['userId', 'amount', 'constructor'],
        `SELECT PK, SK, amount, "constructor", userId FROM App WHERE SK = 'ORDER#1'`,
      ).then((rows) =>
        rows.map((r) =>
          again.columns.map((c) => r[['PK', 'SK', 'amount', 'constructor', 'userId'].indexOf(c)]),
        ),
      ),
    );
  });

  it('a changed view, table description or name binds again, and answers as DuckDB does', async () => {
    const statements = new PreparedStatements();
    const items = appItems(3, 30, 500);
    const data = loaded(APP, items);
    const columns = ['userId', 'name', 'amount'];
    const orders = sortKeyViews('App', { users: 'USER#', orders: 'ORDER#' });
    const run1 = runOver(JOIN, [APP], data, orders, 0, statements);
    expect(sorted(run1.rows)).toEqual(await duck(items, columns, duckJoin('ORDER#')));

    // The user's view `orders` now means the returns.
    const returns = sortKeyViews('App', { users: 'USER#', orders: 'RETURN#' });
    const run2 = runOver(JOIN, [APP], data, returns, 0, statements);
    expect(run2.bound).not.toBe(run1.bound);
    expect(sorted(run2.rows)).toEqual(await duck(items, columns, duckJoin('RETURN#')));
    expect(sorted(run2.rows)).not.toEqual(sorted(run1.rows));

    // A view made by the user instead of detected, with the same condition: the same answer
    // from a new binding (views are compared whole).
    const userMade: EntityView[] = returns.map((v) => ({ ...v, source: 'user' }));
    const run3 = runOver(JOIN, [APP], data, userMade, 0, statements);
    expect(run3.bound).not.toBe(run2.bound);
    expect(sorted(run3.rows)).toEqual(sorted(run2.rows));
    expect(runOver(JOIN, [APP], data, userMade, 0, statements).bound).toBe(run3.bound);

    // The table described again (its item count moved): bound again.
    const described = { ...APP, itemCount: 530 };
    expect(runOver(JOIN, [described], data, userMade, 0, statements).bound).not.toBe(run3.bound);

    // The view gone: the statement is refused as it would be the first time, not answered stale.
    expect(() => runOver(JOIN, [APP], data, [], 0, statements)).toThrow(
      /no table or entity view called "orders"/,
    );

    // A table called `orders` appears: a table wins over a view of that name.
    const ordersTable = tableInfo('orders', 'PK', 'SK');
    const own = new ColumnarTable('orders', ['PK', 'SK']);
    const ownItems = appItems(4, 10, 80).filter((i) => (i.SK as { S: string }).S.startsWith('ORDER#'));
    own.appendTaggedItems(ownItems);
    const both = new Map([...data, ['orders', own]]);
    const count = 'SELECT COUNT(*) AS n FROM orders';
    expect(runOver(count, [APP], data, orders, 0, statements).rows).toEqual([[400]]);
    expect(runOver(count, [APP, ordersTable], both, orders, 0, statements).rows).toEqual([[ownItems.length]]);
  });

  it('equal descriptions in new objects reuse the binding; a change anywhere in one binds again', async () => {
    const statements = new PreparedStatements();
    const items = appItems(6, 20, 300);
    const data = loaded(APP, items);
    const columns = ['userId', 'name', 'amount'];
    // Index names are names too: `__proto__` as an own key of a null-prototype record.
    const perIndex = (n: number): Record<string, number> =>
      Object.assign(Object.create(null) as Record<string, number>, { ['__proto__']: n, constructor: 2 });
    const described = { ...APP, itemsPerPartition: 12, indexItemsPerPartition: perIndex(3) };
    const views = sortKeyViews('App', { users: 'USER#', orders: 'ORDER#' });
    const run1 = runOver(JOIN, [described], data, views, 0, statements);
    expect(sorted(run1.rows)).toEqual(await duck(items, columns, duckJoin('ORDER#')));

    // The catalog described again into new, equal objects (as the session's catalog does for
    // every statement, and the renderer's views with every request): the same binding.
    const copy = { ...described, keys: structuredClone(APP.keys), indexItemsPerPartition: perIndex(3) };
    const run2 = runOver(JOIN, [copy], data, structuredClone(views), 0, statements);
    expect(run2.bound).toBe(run1.bound);
    expect(sorted(run2.rows)).toEqual(sorted(run1.rows));

    // One value deep inside a new copy changed: bound again, from the copy accepted last as well.
    const perIndexMoved = { ...copy, indexItemsPerPartition: perIndex(4) };
    const run3 = runOver(JOIN, [perIndexMoved], data, views, 0, statements);
    expect(run3.bound).not.toBe(run2.bound);
    const sortKeyNumber = {
      ...perIndexMoved,
      keys: { ...APP.keys, sortKey: { name: 'SK', type: 'N' as const } },
    };
    expect(runOver(JOIN, [sortKeyNumber], data, views, 0, statements).bound).not.toBe(run3.bound);

    // A view's condition changed inside an otherwise equal copy: the returns, as DuckDB says.
    const returns = structuredClone(views).map((v) =>
      v.name === 'orders' ? { ...v, conditions: [{ ...v.conditions[0]!, values: [{ S: 'RETURN#' }] }] } : v,
    );
    const run4 = runOver(JOIN, [sortKeyNumber], data, returns, 0, statements);
    expect(sorted(run4.rows)).toEqual(await duck(items, columns, duckJoin('RETURN#')));
    expect(sorted(run4.rows)).not.toEqual(sorted(run1.rows));

    // A key no longer there (the per-partition estimate dropped): bound again too.
    const { itemsPerPartition: _dropped, ...withoutEstimate } = sortKeyNumber;
    expect(runOver(JOIN, [withoutEstimate], data, returns, 0, statements).bound).not.toBe(run4.bound);
  });

  it('keeps one statement per scope and text, the least recently used going first', () => {
    const statements = new PreparedStatements(2);
    const a = statements.get('c1', 'SELECT 1 AS a');
    expect(statements.get('c1', 'SELECT 1 AS a')).toBe(a);
    expect(statements.get('c2', 'SELECT 1 AS a')).not.toBe(a);
    expect(statements.get('c1', 'SELECT 1 AS a ')).not.toBe(a);
    // c2's and the spaced text are now the two kept; `a` went first.
    const again = statements.get('c1', 'SELECT 1 AS a');
    expect(again).not.toBe(a);
    statements.get('c1', 'SELECT 2 AS b');
    expect(statements.get('c1', 'SELECT 1 AS a')).toBe(again);
  });

  it('a text that does not parse is refused every time and kept nowhere', () => {
    const statements = new PreparedStatements(1);
    const kept = statements.get('c', 'SELECT 1 AS one');
    for (let i = 0; i < 2; i++) expect(() => statements.get('c', 'SELECT FROM WHERE')).toThrow(SqlError);
    expect(statements.get('c', 'SELECT 1 AS one')).toBe(kept);
  });

  it('runs leave the kept parse and binding as they were', async () => {
    const statements = new PreparedStatements();
    const views = sortKeyViews('App', { users: 'USER#', orders: 'ORDER#' });
    const items = appItems(5, 25, 400);
    const columns = ['userId', 'name', 'amount'];
    const cases: [string, string][] = [
      [JOIN, duckJoin('ORDER#')],
      [
        'WITH big AS (SELECT userId, amount FROM orders WHERE amount > 40) SELECT COUNT(*) AS n, SUM(b1.amount) AS s FROM big b1 JOIN big b2 ON b1.userId = b2.userId',
        "WITH big AS (SELECT userId, amount FROM App WHERE starts_with(SK, 'ORDER#') AND amount > 40) SELECT COUNT(*), SUM(b1.amount) FROM big b1 JOIN big b2 ON b1.userId = b2.userId",
      ],
      [
        'SELECT COUNT(*) AS n FROM orders o WHERE o.amount > (SELECT AVG(p.amount) FROM orders p WHERE p.userId = o.userId)',
        "SELECT COUNT(*) FROM App o WHERE starts_with(o.SK, 'ORDER#') AND o.amount > (SELECT AVG(p.amount) FROM App p WHERE starts_with(p.SK, 'ORDER#') AND p.userId = o.userId)",
      ],
      [
        'SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM orders) t WHERE rn <= 3',
        "SELECT COUNT(*), SUM(amount) FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM App WHERE starts_with(SK, 'ORDER#')) t WHERE rn <= 3",
      ],
      [
        "SELECT userId, amount FROM orders WHERE amount < 0 UNION ALL SELECT userId, amount FROM orders WHERE userId IN ('u1', 'u2') ORDER BY amount DESC LIMIT 7",
        "(SELECT userId, amount FROM App WHERE starts_with(SK, 'ORDER#') AND amount < 0 UNION ALL SELECT userId, amount FROM App WHERE starts_with(SK, 'ORDER#') AND userId IN ('u1', 'u2')) ORDER BY amount DESC LIMIT 7",
      ],
      [
        'SELECT name, COUNT(*) AS n FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.userId = u.userId AND o.amount > 80) GROUP BY name HAVING COUNT(*) > 1',
        "SELECT name, COUNT(*) FROM App u WHERE starts_with(u.SK, 'USER#') AND EXISTS (SELECT 1 FROM App o WHERE starts_with(o.SK, 'ORDER#') AND o.userId = u.userId AND o.amount > 80) GROUP BY name HAVING COUNT(*) > 1",
      ],
    ];
    for (const [text, duckText] of cases) {
      const expected = await duck(items, columns, duckText);
      const first = runOver(text, [APP], loaded(APP, items), views, 0, statements);
      deepFreeze(statements.get('', text).statement);
      deepFreeze(first.bound);
      // The executor's rewrites (derived tables' conditions moved in, correlated subqueries made
      // uncorrelated) are kept with the binding: later runs read them and write nothing into them.
      const rewrites = statements.get('', text).rewrites(first.bound);
      expect(rewrites, text).toBeDefined();
      deepFreeze(rewrites);
      for (let i = 0; i < 2; i++) {
        const run = runOver(text, [APP], loaded(APP, items), views, 0, statements);
        expect(run.bound, text).toBe(first.bound);
        expect(sorted(run.rows), text).toEqual(expected);
      }
    }
  });
});

describe('a subquery over a whole table', () => {
  it('reads every row, those appended since the last statement included', async () => {
    const info = tableInfo('orders', 'orderId');
    const table = new ColumnarTable('orders', ['orderId']);
    const data = new Map([['orders', table]]);
    const r = new Random(7);
    const held: Item[] = [];
    const add = (from: number, to: number): void => {
      const items = Array.from({ length: to - from }, (_, k): Item => ({
        orderId: { S: `o${from + k}` },
        customerId: { S: r.pick(NAMES) },
        total: { N: String(r.int(0, 40_000) / 100) },
      }));
      table.appendTaggedItems(items);
      held.push(...items);
    };
    const cases: [string, string][] = [
      [
        'SELECT COUNT(*) AS n, SUM(total) AS top3 FROM (SELECT total, ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY total DESC) AS rn FROM orders) t WHERE rn <= 3',
        'SELECT COUNT(*), SUM(total) FROM (SELECT total, ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY total DESC) AS rn FROM orders) t WHERE rn <= 3',
      ],
      [
        'SELECT COUNT(*) AS n FROM orders o WHERE o.total > (SELECT AVG(p.total) FROM orders p WHERE p.customerId = o.customerId)',
        'SELECT COUNT(*) FROM orders o WHERE o.total > (SELECT AVG(p.total) FROM orders p WHERE p.customerId = o.customerId)',
      ],
    ];
    const expected = async (sql: string): Promise<unknown[][]> => {
      const connection = await duckdbWith([
        { name: 'orders', columns: { customerId: 'VARCHAR', total: 'DECIMAL(38,4)' }, items: held },
      ]);
      connections.push(connection);
      return sorted(await duckRows(connection, sql));
    };
    for (const [from, to] of [
      [0, 300],
      [300, 700],
    ]) {
      add(from!, to!);
      // Each statement twice, and the two in turn: the rows kept for the table are only read.
      for (let round = 0; round < 2; round++)
        for (const [text, duckText] of cases)
          expect(sorted(runOver(text, [info], data).rows), text).toEqual(await expected(duckText));
    }
  });
});

/** Frozen all the way down, so a run that writes into the kept statement throws (strict mode). */
function deepFreeze(value: unknown, seen = new Set<unknown>()): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (value instanceof Set || value instanceof Map) {
    for (const v of value.values()) deepFreeze(v, seen);
    Object.freeze(value);
    return;
  }
  for (const v of Object.values(value)) deepFreeze(v, seen);
  Object.freeze(value as BoundQuery);
}
