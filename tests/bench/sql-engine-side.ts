import type { BoundQuery } from '../../src/main/sql/binder/bound';
import { executeQuery } from '../../src/main/sql/executor/execute';
import type { ResultTable } from '../../src/main/sql/executor/result';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { fetchSpecs } from '../../src/main/sql/planner/plan';
import { PreparedStatement, type PreparedStatements } from '../../src/main/sql/prepared-statements';
import type { TableInfo } from '../../src/shared/sql/catalog';
import type { BenchShape, BenchTable } from './sql-cases';
import type { SdkItem } from './sql-data';

/**
 * DynoTable's side of `npm run bench:sql`, fed the way the product feeds it: a page's response
 * bytes go through the read engine's splitter (wire-page.ts), which leaves the Items to the
 * table's own walk of the bytes, as the SQL fetch does (fetcher.ts `readWire`). The other sides
 * get the same bytes and pay JSON.parse in their load.
 */

export const CPU_MS = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const catalogOf = (shape: BenchShape) => ({ tables: shape.tables.map((t) => t.info), views: shape.views });

const bound = (text: string, shape: BenchShape): BoundQuery =>
  new PreparedStatement(text).bound(catalogOf(shape));

/**
 * A statement parsed, bound and run. With `statements`, the text is looked up in that plan cache
 * first, as the SQL session does (prepared-statements.ts): a re-run is bound once its catalog
 * answers are checked, not parsed or bound again, and the executor's rewrites are the binding's.
 */
export function runEngine(
  text: string,
  data: { shape: BenchShape; tables: ReadonlyMap<string, ColumnarTable> },
  statements?: PreparedStatements,
): unknown[][] {
  const prepared = statements?.get('', text) ?? new PreparedStatement(text);
  const query = prepared.bound(catalogOf(data.shape));
  const result = executeQuery(query, {
    text,
    fn: { nowMs: Date.now() },
    tableFor: (binding) => data.tables.get((binding.source as { table: TableInfo }).table.name)!,
    warn: () => undefined,
    // Afresh, the PreparedStatement is new: its rewrites are made in this run, as a first run's are.
    rewrites: prepared.rewrites(query),
  });
  return rowsOf(result);
}

/**
 * The rows as the engine gives them; spelling decimals as text is the comparison's job
 * (canonical), not a cost of the statement: the hand-written side returns numbers too. Pushed
 * in a loop, as the hand-written side builds its rows: `Array.from({ length }, …)` looks up
 * each index on the array-like object and cost ~0.17 ms of 5,000 rows (docs/PERFORMANCE.md,
 * sqljoin7), charged to the engine. A function of its own: when the loop sat in runEngine, V8
 * compiled runEngine on the stack for its 5,000 rows and threw that code away at the next
 * statement (`--trace-deopt`: insufficient type feedback, sqlfixed2), a recompile charged to a round.
 */
function rowsOf(result: ResultTable): unknown[][] {
  const rows: unknown[][] = [];
  for (let i = 0; i < result.length; i++) rows.push(result.row(i));
  return rows;
}

/** An empty table as the fetcher makes it (key attributes first). */
export function engineTable(t: BenchTable): ColumnarTable {
  const { partitionKey, sortKey } = t.info.keys;
  return new ColumnarTable(t.info.name, sortKey ? [partitionKey.name, sortKey.name] : [partitionKey.name]);
}

/** One page's response bytes into the table, the SQL fetch's way (its WireItemsReader). */
export function ingestWire(table: ColumnarTable, body: Buffer): void {
  table.appendWirePage(body);
}

/** The read is over: what the SQL fetch does after its last page (fetcher.ts `runFetch`). */
export function endIngest(table: ColumnarTable): void {
  table.finish();
}

/**
 * The attributes the planner asks DynamoDB for, per table (ProjectionExpression); undefined:
 * whole items. The read's FilterExpression (an entity view's begins_with) is not applied to the
 * pages here, so the engine ingests at least what the product would.
 */
export function projections(text: string, shape: BenchShape): Map<string, string[] | undefined> {
  const { specs } = fetchSpecs(bound(text, shape), { maxItems: Number.MAX_SAFE_INTEGER });
  return new Map(specs.map((spec) => [spec.table.name, spec.projection]));
}

/** A page as DynamoDB answers a read with that projection. */
export function projectedPage(page: string, projection: readonly string[] | undefined): Buffer {
  if (!projection) return Buffer.from(page);
  const { Items } = JSON.parse(page) as { Items: SdkItem[] };
  const items = Items.map((item) =>
    Object.fromEntries(projection.filter((a) => Object.hasOwn(item, a)).map((a) => [a, item[a]])),
  );
  return Buffer.from(JSON.stringify({ Items: items }));
}
