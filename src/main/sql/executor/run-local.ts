import type { Item } from '../../../shared/dynamo/attribute-value';
import type { EntityView, TableInfo } from '../../../shared/sql/catalog';
import type { Value } from '../values/value';
import type { BoundQuery } from '../binder/bound';
import { PreparedStatement, type PreparedStatements } from '../prepared-statements';
import { executeQuery } from './execute';
import type { ResultTable } from './result';
import { ColumnarTable } from './table';

export interface LocalTable {
  info: TableInfo;
  items: readonly Item[];
}

export interface LocalRun {
  result: ResultTable;
  columns: string[];
  rows: Value[][];
  warnings: string[];
  bound: BoundQuery;
}

export function tableInfo(
  name: string,
  partitionKey: string,
  sortKey?: string,
  extra: Partial<TableInfo> = {},
): TableInfo {
  return {
    name,
    keys: {
      partitionKey: { name: partitionKey, type: 'S' },
      sortKey: sortKey ? { name: sortKey, type: 'S' } : undefined,
    },
    indexes: [],
    itemCount: 0,
    sizeBytes: 0,
    ...extra,
  };
}

/**
 * Runs a statement over items already in memory — no DynamoDB, no planner. Tests and the
 * benchmark use it to exercise the engine alone; the session adds planning and fetching.
 */
export function runLocal(
  text: string,
  tables: LocalTable[],
  views: EntityView[] = [],
  nowMs = Date.now(),
): LocalRun {
  const data = new Map<string, ColumnarTable>();
  for (const t of tables) {
    const table = new ColumnarTable(t.info.name, [
      t.info.keys.partitionKey.name,
      ...(t.info.keys.sortKey ? [t.info.keys.sortKey.name] : []),
    ]);
    table.appendTaggedItems(t.items);
    data.set(t.info.name, table);
  }
  return runOver(
    text,
    tables.map((t) => t.info),
    data,
    views,
    nowMs,
  );
}

/**
 * Runs a statement over tables the caller holds (by name), which keep what statements leave
 * with their columns: a test can append a page between two statements, as a fetch does. With
 * `statements`, the text is looked up in that plan cache first, as the session does.
 */
export function runOver(
  text: string,
  infos: TableInfo[],
  data: ReadonlyMap<string, ColumnarTable>,
  views: EntityView[] = [],
  nowMs = Date.now(),
  statements?: PreparedStatements,
): LocalRun {
  const prepared = statements?.get('', text) ?? new PreparedStatement(text);
  const bound = prepared.bound({ tables: infos, views });
  const warnings: string[] = [];
  const result = executeQuery(bound, {
    text,
    fn: { nowMs },
    tableFor: (binding) => data.get((binding.source as { table: TableInfo }).table.name)!,
    warn: (message) => warnings.push(message),
    rewrites: prepared.rewrites(bound),
  });
  const rows = Array.from({ length: result.length }, (_, i) => result.row(i));
  return { result, columns: result.columns, rows, warnings, bound };
}
