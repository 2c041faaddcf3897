import type { EntityView } from '../../src/shared/sql/catalog';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { Decimal, numToString } from '../../src/main/sql/values/decimal';
import type { TableInfo } from '../../src/shared/sql/catalog';
import { OneTableColumns, TwoTableColumns } from './sql-columnar';
import { pages, twoTablePages, type SdkItem } from './sql-data';
import { APP_TABLE, type DuckTableSpec } from './sql-others';

/**
 * The questions of `npm run bench:sql`, on two shapes of data (issue #32): the one-table design
 * (~1 KB items, users and orders told apart by the sort key, read through entity views) and two
 * tables (1M orders joined to 100k customers, ~150-byte items). Each question is written for every
 * side: DynoTable's SQL, DuckDB's SQL over typed tables, optionally alasql, and the hand-written
 * columnar JavaScript of sql-columnar.ts. Every side's answer becomes the same sorted lines, so the
 * benchmark can say whether they agree.
 */
export interface BenchCase {
  label: string;
  dyno: string;
  duck: string;
  alasql?: string;
  hand(): unknown[][];
}

export interface BenchTable {
  info: TableInfo;
  duck: DuckTableSpec;
  pages(): Generator<string>;
  /** The hand-written side's load of one parsed page. */
  handAppend(items: readonly SdkItem[]): void;
}

export interface BenchShape {
  label: string;
  items: number;
  tables: BenchTable[];
  /** The hand-written side's typed arrays, in bytes. */
  handBytes(): number;
  views: EntityView[];
  cases: BenchCase[];
}

export function oneTableShape(size: number): BenchShape {
  const hand = new OneTableColumns(size);
  const views: EntityView[] = ['users', 'orders'].map((name) => ({
    name,
    table: 'App',
    conditions: [
      { attribute: 'SK', op: 'begins_with', values: [{ S: `${name === 'users' ? 'USER' : 'ORDER'}#` }] },
    ],
    source: 'detected',
  }));
  return {
    label: `${size.toLocaleString('en-US')} items in one table (~1 KB each)`,
    items: size,
    handBytes: () => hand.bytes(),
    views,
    tables: [
      {
        info: tableInfo('App', 'PK', 'SK'),
        duck: APP_TABLE,
        pages: () => pages(size),
        handAppend: (items) => hand.append(items),
      },
    ],
    cases: [
      {
        label: 'JOIN + GROUP BY',
        dyno: 'SELECT u.name, COUNT(*) AS orders, SUM(o.amount) AS revenue FROM orders o JOIN users u ON o.userId = u.userId GROUP BY u.name',
        duck: "SELECT u.name, COUNT(*), SUM(o.amount) FROM App o JOIN App u ON o.userId = u.userId WHERE starts_with(o.SK, 'ORDER#') AND starts_with(u.SK, 'USER#') GROUP BY u.name",
        alasql:
          "SELECT u.name, COUNT(*) AS n, SUM(o.amount) AS s FROM App AS o JOIN App AS u ON o.userId = u.userId WHERE o.SK LIKE 'ORDER#%' AND u.SK LIKE 'USER#%' GROUP BY u.name",
        hand: () => hand.joinGroup(),
      },
      {
        label: 'GROUP BY',
        dyno: 'SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM App GROUP BY status',
        duck: 'SELECT status, COUNT(*), SUM(amount) FROM App GROUP BY status',
        alasql: 'SELECT status, COUNT(*) AS n, SUM(amount) AS s FROM App GROUP BY status',
        hand: () => hand.groupByStatus(),
      },
      {
        label: 'window (top 3 per user)',
        dyno: 'SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM orders) t WHERE rn <= 3',
        duck: "SELECT COUNT(*), SUM(amount) FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM App WHERE starts_with(SK, 'ORDER#')) t WHERE rn <= 3",
        alasql:
          "SELECT COUNT(*) AS n, SUM(amount) AS s FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM App WHERE SK LIKE 'ORDER#%') AS t WHERE rn <= 3",
        hand: () => hand.topThree(),
      },
      {
        label: 'correlated subquery',
        dyno: 'SELECT COUNT(*) AS n FROM orders o WHERE o.amount > (SELECT AVG(p.amount) FROM orders p WHERE p.userId = o.userId)',
        duck: "SELECT COUNT(*) FROM App o WHERE starts_with(o.SK, 'ORDER#') AND o.amount > (SELECT AVG(p.amount) FROM App p WHERE starts_with(p.SK, 'ORDER#') AND p.userId = o.userId)",
        hand: () => hand.aboveOwnAverage(),
      },
    ],
  };
}

export const CUSTOMERS_TABLE: DuckTableSpec = {
  name: 'customers',
  text: ['customerId', 'name', 'country'],
  cents: [],
  integers: [],
};
export const ORDERS_TABLE: DuckTableSpec = {
  name: 'orders',
  text: ['orderId', 'customerId', 'status'],
  cents: ['total'],
  integers: [],
};

export function twoTableShape(orders: number): BenchShape {
  const customers = Math.ceil(orders / 10);
  const hand = new TwoTableColumns(customers, orders);
  const data = twoTablePages(orders, customers);
  return {
    label: `${orders.toLocaleString('en-US')} orders × ${customers.toLocaleString('en-US')} customers, two tables`,
    items: orders + customers,
    handBytes: () => hand.bytes(),
    views: [],
    tables: [
      {
        info: tableInfo('customers', 'customerId'),
        duck: CUSTOMERS_TABLE,
        pages: data.customers,
        handAppend: (items) => hand.appendCustomers(items),
      },
      {
        info: tableInfo('orders', 'orderId'),
        duck: ORDERS_TABLE,
        pages: data.orders,
        handAppend: (items) => hand.appendOrders(items),
      },
    ],
    cases: [
      {
        label: 'JOIN + GROUP BY',
        dyno: "SELECT c.country, COUNT(*) AS n, SUM(o.total) AS total FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'PAID' GROUP BY c.country",
        duck: "SELECT c.country, COUNT(*), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'PAID' GROUP BY c.country",
        hand: () => hand.joinGroup('PAID'),
      },
      {
        label: 'GROUP BY',
        dyno: 'SELECT status, COUNT(*) AS n, SUM(total) AS total FROM orders GROUP BY status',
        duck: 'SELECT status, COUNT(*), SUM(total) FROM orders GROUP BY status',
        hand: () => hand.groupByStatus(),
      },
      {
        label: 'window (top 3 per customer)',
        dyno: 'SELECT COUNT(*) AS n, SUM(total) AS top3 FROM (SELECT total, ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY total DESC) AS rn FROM orders) t WHERE rn <= 3',
        duck: 'SELECT COUNT(*), SUM(total) FROM (SELECT total, ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY total DESC) AS rn FROM orders) t WHERE rn <= 3',
        hand: () => hand.topThree(),
      },
      {
        label: 'correlated subquery',
        dyno: 'SELECT COUNT(*) AS n FROM orders o WHERE o.total > (SELECT AVG(p.total) FROM orders p WHERE p.customerId = o.customerId)',
        duck: 'SELECT COUNT(*) FROM orders o WHERE o.total > (SELECT AVG(p.total) FROM orders p WHERE p.customerId = o.customerId)',
        hand: () => hand.aboveOwnAverage(),
      },
    ],
  };
}

/** Sorted lines of a result: numbers to two decimals (the amounts are cents), NULL for none. */
export function canonical(rows: readonly (readonly unknown[])[]): string[] {
  return rows
    .map((row) =>
      row
        .map((v) => {
          if (v === null || v === undefined) return 'NULL';
          if (typeof v === 'number' || typeof v === 'bigint') return Number(v).toFixed(2);
          const text = typeof v === 'string' ? v : v instanceof Decimal ? numToString(v) : JSON.stringify(v);
          return /^-?\d+(\.\d+)?$/.test(text) ? Number(text).toFixed(2) : text;
        })
        .join(' | '),
    )
    .sort();
}
