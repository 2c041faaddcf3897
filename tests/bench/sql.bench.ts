/**
 * `npm run bench:sql`: the SQL engine against hand-written JavaScript over the same items, in
 * the same process, alternating runs so machine load hits both alike. Prints engine/reference
 * ratios for a JOIN + GROUP BY and a GROUP BY at each size, the engine's load cost per item
 * (paid while pages arrive) and the heap the loaded items take.
 *
 *   SQL_BENCH_SIZES=100000,1000000   sizes to run (default both)
 *   SQL_BENCH_ROUNDS=5               runs per query and side (medians are reported)
 */
import { parseStatement } from '../../src/main/sql/parser/parser';
import { bindStatement } from '../../src/main/sql/engine/bind-query';
import { executeQuery } from '../../src/main/sql/engine/execute';
import { resolveTable } from '../../src/main/sql/catalog/resolve-table';
import { tableInfo } from '../../src/main/sql/engine/run-local';
import { ColumnarTable } from '../../src/main/sql/engine/table';
import { numToString, type Num } from '../../src/main/sql/values/decimal';
import type { EntityView } from '../../src/shared/sql/catalog';
import { pages, type SdkItem } from './sql-data';
import { referenceGroup, referenceJoinGroup } from './sql-reference';

const sizes = (process.env.SQL_BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const rounds = Number(process.env.SQL_BENCH_ROUNDS ?? 5);
const gc = (globalThis as { gc?: () => void }).gc;

const views: EntityView[] = [
  {
    name: 'users',
    table: 'App',
    conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: 'USER#' }] }],
    source: 'detected',
  },
  {
    name: 'orders',
    table: 'App',
    conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: 'ORDER#' }] }],
    source: 'detected',
  },
];
const catalog = { tables: [tableInfo('App', 'PK', 'SK')], views };
export const JOIN_GROUP =
  'SELECT u.name, COUNT(*) AS orders, SUM(o.amount) AS revenue FROM orders o JOIN users u ON o.userId = u.userId GROUP BY u.name';
export const GROUP = 'SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM App GROUP BY status';

function runEngine(text: string, table: ColumnarTable): Map<string, { count: number; sum: Num | null }> {
  const bound = bindStatement(parseStatement(text), {
    text,
    resolveTable: (name, schema, span) => resolveTable(catalog, name, schema, span, text),
  });
  const result = executeQuery(bound, {
    text,
    fn: { nowMs: Date.now() },
    tableFor: () => table,
    warn: () => undefined,
  });
  const out = new Map<string, { count: number; sum: Num | null }>();
  for (let i = 0; i < result.length; i++) {
    const [key, count, sum] = result.row(i);
    out.set(typeof key === 'string' ? key : '', { count: count as number, sum: sum as Num | null });
  }
  return out;
}

const time = <T>(fn: () => T): [number, T] => {
  const start = performance.now();
  const value = fn();
  return [performance.now() - start, value];
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const heapMb = (): number => {
  gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 1e6;
};

function measure(size: number): void {
  const before = heapMb();
  const table = new ColumnarTable('App', ['PK', 'SK']);
  let ingestMs = 0;
  let pageCount = 0;
  for (const page of pages(size)) {
    const { Items } = JSON.parse(page) as { Items: SdkItem[] };
    ingestMs += time(() => table.appendSdkItems(Items))[0];
    pageCount += 1;
  }
  const engineHeap = heapMb() - before;
  const referenceItems: SdkItem[] = [];
  for (const page of pages(size))
    for (const item of (JSON.parse(page) as { Items: SdkItem[] }).Items) referenceItems.push(item);
  const referenceHeap = heapMb() - before - engineHeap;

  console.log(`\n${size.toLocaleString('en-US')} items (~1 KB each, ${pageCount} pages of 1,000)`);
  console.log(
    `  load: ${((ingestMs * 1000) / size).toFixed(2)} µs/item, ${(ingestMs / pageCount).toFixed(1)} ms per page — done while the next page is fetched`,
  );
  console.log(
    `  heap: engine columns ${engineHeap.toFixed(0)} MB (${((engineHeap * 1e6) / size).toFixed(0)} B/item); SDK item objects ${referenceHeap.toFixed(0)} MB (${((referenceHeap * 1e6) / size).toFixed(0)} B/item)`,
  );

  const cases = [
    { label: 'JOIN + GROUP BY', sql: JOIN_GROUP, reference: () => referenceJoinGroup(referenceItems) },
    { label: 'GROUP BY', sql: GROUP, reference: () => referenceGroup(referenceItems) },
  ];
  for (const c of cases) {
    const engineTimes: number[] = [];
    const referenceTimes: number[] = [];
    let engineOut = new Map<string, { count: number; sum: Num | null }>();
    let referenceOut = new Map<string | undefined, { count: number; sum: number }>();
    for (let round = 0; round < rounds; round++) {
      const [e, eo] = time(() => runEngine(c.sql, table));
      const [r, ro] = time(c.reference);
      engineTimes.push(e);
      referenceTimes.push(r);
      engineOut = eo;
      referenceOut = ro;
    }
    let countsAgree = engineOut.size === referenceOut.size;
    let worstDrift = 0;
    for (const [key, ref] of referenceOut) {
      const mine = engineOut.get(key ?? '');
      if (!mine || mine.count !== ref.count) countsAgree = false;
      if (mine?.sum !== null && mine?.sum !== undefined)
        worstDrift = Math.max(worstDrift, Math.abs(Number(numToString(mine.sum)) - ref.sum));
    }
    const ratio = median(engineTimes) / median(referenceTimes);
    console.log(
      `  ${c.label.padEnd(16)} engine ${median(engineTimes).toFixed(0).padStart(6)} ms  reference ${median(referenceTimes).toFixed(0).padStart(6)} ms  ratio ${ratio.toFixed(2)}x` +
        `  (best ${Math.min(...engineTimes).toFixed(0)} / ${Math.min(...referenceTimes).toFixed(0)} ms; groups ${engineOut.size}, counts ${countsAgree ? 'agree' : 'DIFFER'}, reference double-sum drift ${worstDrift.toExponential(1)})`,
    );
  }
}

if (!gc) console.log('(run with node --expose-gc for heap figures: npm run bench:sql does)');
console.log(
  `SQL engine vs hand-written JavaScript — Node ${process.version}, ${rounds} alternating rounds per query, medians`,
);
for (const size of sizes) measure(size);
