import type { EntityView, TableInfo } from '../../../shared/sql/catalog';
import { executeQuery } from '../executor/execute';
import { tableInfo } from '../executor/run-local';
import { ColumnarTable } from '../executor/table';
import { PreparedStatement } from '../prepared-statements';

/**
 * The SQL worker's warm-up. A statement's first run in a fresh worker spends most of its time in
 * V8's interpreter, not in its data: a 90,000-row loop costs ~20 ms on its first call and 0.3 ms
 * once optimised (docs/PERFORMANCE.md, "Windows and correlated subqueries, third pass"). So
 * while the worker has nothing to do (it starts when the SQL workbench loads its catalog, and
 * the user is still typing), it runs the common statement shapes — a JOIN with GROUP BY, a
 * GROUP BY, top N per partition, a correlated AVG, a sorted filter — over small generated
 * tables read from response bytes the way a fetch reads them. Each step is one statement and
 * the next waits for the event loop to turn, so a message is never kept waiting longer than one
 * step; the worker stops the warm-up for good when the first statement arrives, and a worker
 * asked for one as it starts does none of it (measured: docs/PERFORMANCE.md).
 */

export interface WarmUpOptions {
  /** Orders in the generated tables (customers: a tenth); one-table items the same. */
  rows?: number;
  /** Times each statement runs. */
  rounds?: number;
  /**
   * Quiet time before the first step. A worker asked for a statement as it starts (the CLI,
   * tests) gets it before the warm-up has done anything; the workbench's user takes seconds.
   */
  startAfterMs?: number;
  /**
   * Told once, with a sentence, when a step fails; the warm-up then ends and the worker goes on.
   * The worker sends it to main's log: the user never sees it (nothing they asked for failed).
   */
  onError?: (message: string) => void;
  /** Statements run each round (tests give one that fails). */
  statements?: readonly string[];
}

export interface WarmUp {
  /** Ends the warm-up before its next step. */
  stop(): void;
  /** Steps run when it ended (finished or stopped). */
  readonly done: Promise<number>;
}

/** Measured (docs/PERFORMANCE.md, "First run warmed in the worker"): the smallest that helped. */
const DEFAULT_ROWS = 4000;
const DEFAULT_ROUNDS = 4;
const DEFAULT_START_AFTER_MS = 250;
const STATUSES = ['PENDING', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'];
const COUNTRIES = ['NO', 'SE', 'DK', 'FI', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'US', 'CA'];

/** Statements over the two-table tables and the one-table design's entity views. */
export const WARM_UP_STATEMENTS: readonly string[] = [
  "SELECT c.country, COUNT(*) AS n, SUM(o.total) AS total FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'PAID' GROUP BY c.country",
  'SELECT status, COUNT(*) AS n, SUM(total) AS total, AVG(total) AS mean FROM orders GROUP BY status',
  'SELECT COUNT(*) AS n, SUM(total) AS top3 FROM (SELECT total, ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY total DESC) AS rn FROM orders) t WHERE rn <= 3',
  'SELECT COUNT(*) AS n FROM orders o WHERE o.total > (SELECT AVG(p.total) FROM orders p WHERE p.customerId = o.customerId)',
  'SELECT orderId, customerId, total FROM orders WHERE total > 250 ORDER BY total DESC LIMIT 50',
  'SELECT u.name, COUNT(*) AS n, SUM(o.amount) AS revenue FROM app_orders o JOIN app_users u ON o.userId = u.userId GROUP BY u.name',
  'SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM app_orders) t WHERE rn <= 3',
  'SELECT COUNT(*) AS n FROM app_orders o WHERE o.amount > (SELECT AVG(p.amount) FROM app_orders p WHERE p.userId = o.userId)',
];

const VIEWS: EntityView[] = [
  { name: 'app_users', prefix: 'USER#' },
  { name: 'app_orders', prefix: 'ORDER#' },
].map(({ name, prefix }) => ({
  name,
  table: 'App',
  conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: prefix }] }],
  source: 'detected',
}));

/** Cents as DynamoDB spells a number: no trailing zeros ("12.5", "7"). */
const amount = (seed: number): string => String(((seed * 7919) % 50000) / 100);
const id = (prefix: string, n: number): string => `${prefix}${String(n).padStart(6, '0')}`;

type WarmItem = Record<string, { S: string } | { N: string }>;

/** A response's bytes, `{"Items":[...]}`, as the read engine receives them. */
function page(items: WarmItem[]): Buffer {
  return Buffer.from(JSON.stringify({ Items: items, Count: items.length, ScannedCount: items.length }));
}

function tableOf(info: TableInfo, pages: Buffer[]): ColumnarTable {
  const { partitionKey, sortKey } = info.keys;
  const table = new ColumnarTable(
    info.name,
    sortKey ? [partitionKey.name, sortKey.name] : [partitionKey.name],
  );
  for (const body of pages) table.appendWirePage(body);
  table.finish();
  return table;
}

function pagesOf(count: number, make: (i: number) => WarmItem, pageSize = 1000): WarmItem[][] {
  const pages: WarmItem[][] = [];
  for (let start = 0; start < count; start += pageSize)
    pages.push(Array.from({ length: Math.min(pageSize, count - start) }, (_, k) => make(start + k)));
  return pages;
}

function warmTables(rows: number): Map<string, { info: TableInfo; table: ColumnarTable }> {
  const customers = Math.max(1, Math.ceil(rows / 10));
  const infos = [
    tableInfo('customers', 'customerId'),
    tableInfo('orders', 'orderId'),
    tableInfo('App', 'PK', 'SK'),
  ];
  const items = [
    pagesOf(customers, (i) => ({
      customerId: { S: id('C', i) },
      name: { S: `Customer ${i}` },
      country: { S: COUNTRIES[i % COUNTRIES.length]! },
    })),
    pagesOf(rows, (i) => ({
      orderId: { S: id('O', i) },
      customerId: { S: id('C', (i * 7) % customers) },
      status: { S: STATUSES[i % STATUSES.length]! },
      total: { N: amount(i) },
    })),
    pagesOf(rows, (i): WarmItem => {
      const user = id('U', Math.floor(i / 10));
      return i % 10 === 0
        ? {
            PK: { S: `USER#${user}` },
            SK: { S: `USER#${user}` },
            userId: { S: user },
            name: { S: `User ${i}` },
          }
        : {
            PK: { S: `USER#${user}` },
            SK: { S: id('ORDER#', i) },
            userId: { S: user },
            amount: { N: amount(i) },
          };
    }),
  ];
  return new Map(infos.map((info, k) => [info.name, { info, table: tableOf(info, items[k]!.map(page)) }]));
}

/** Runs one statement over the warm-up's tables and reads every result row, as a result window does. */
function runStatement(text: string, tables: ReturnType<typeof warmTables>): number {
  const catalog = { tables: [...tables.values()].map((t) => t.info), views: VIEWS };
  // Parsed and bound anew each time, as a statement's first run is: that path is the one to warm.
  const bound = new PreparedStatement(text).bound(catalog);
  const result = executeQuery(bound, {
    text,
    fn: { nowMs: Date.now() },
    tableFor: (binding) => tables.get((binding.source as { table: TableInfo }).table.name)!.table,
    warn: () => undefined,
  });
  for (let i = 0; i < result.length; i++) result.row(i);
  return result.length;
}

/**
 * Starts the warm-up on the next turns of the event loop. `schedule` is how a step waits for its
 * turn (setImmediate: after any message or I/O callback already due).
 */
export function startWarmUp(
  options: WarmUpOptions = {},
  schedule: (step: () => void) => void = (step) => setImmediate(step),
): WarmUp {
  const rows = options.rows ?? DEFAULT_ROWS;
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const statements = options.statements ?? WARM_UP_STATEMENTS;
  let stopped = false;
  let tables: ReturnType<typeof warmTables> | undefined;
  let steps = 0;
  const total = 1 + rounds * statements.length;
  const done = new Promise<number>((resolve) => {
    const next = (): void => {
      if (stopped || steps === total) {
        tables = undefined;
        resolve(steps);
        return;
      }
      // A failure here is a defect to fix, not a reason to stop the worker: the warm-up only
      // ever makes the first statement faster. So it is logged, once, and the warm-up ends.
      const statement = tables ? statements[(steps - 1) % statements.length]! : undefined;
      try {
        if (!tables) tables = warmTables(rows);
        else runStatement(statement!, tables);
      } catch (error) {
        stopped = true;
        const what = statement === undefined ? 'building its tables' : `running ${statement}`;
        options.onError?.(
          `The SQL worker's warm-up failed ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
      steps++;
      schedule(next);
    };
    const startAfter = options.startAfterMs ?? DEFAULT_START_AFTER_MS;
    if (startAfter > 0) setTimeout(() => schedule(next), startAfter);
    else schedule(next);
  });
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}
